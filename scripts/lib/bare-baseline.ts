// The ceiling of this machine for `bench:catalog-scale`'s request mix: a bare
// node:http server in its own process (no Next, no database, no
// authentication; it answers fixed bodies of the catalogue's page and detail
// sizes), measured with the same clients, agent and request signing. A
// latency target this baseline misses cannot be met by any server here while
// the load generator shares the machine's cores (decision 0023).
import { spawn } from "node:child_process";
import type http from "node:http";
import { runFor, type LoadResult } from "./load";
import { freePort } from "./scale-server";
import { signedHttpRequest, type SupplierCredentials } from "./signed-fetch";

const SERVER = `
const http = require("node:http");
const [pageBytes, detailBytes, port] = process.argv.slice(-3).map(Number);
const page = Buffer.alloc(pageBytes, 32), detail = Buffer.alloc(detailBytes, 32);
http.createServer((req, res) => {
  const body = req.url.startsWith("/page") ? page : detail;
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length }).end(body);
}).listen(port, "127.0.0.1", () => console.log("ready"));
`;

export interface BareBaselineOptions {
  seconds: number;
  pageClients: number;
  detailClients: number;
  pageBytes: number;
  detailBytes: number;
  agent: http.Agent;
  creds: SupplierCredentials;
}

export async function bareBaseline(o: BareBaselineOptions): Promise<{ products_page: LoadResult; product_detail: LoadResult }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["-e", SERVER, "--", String(o.pageBytes), String(o.detailBytes), String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`the bare baseline server exited (${code})`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const ok = (status: number): true | string => (status === 200 ? true : `http:${status}`);
    const [products_page, product_detail] = await Promise.all([
      runFor(o.seconds, o.pageClients, async () => ok((await signedHttpRequest(o.agent, o.creds, `${base}/page`)).status)),
      runFor(o.seconds, o.detailClients, async () => ok((await signedHttpRequest(o.agent, o.creds, `${base}/detail`)).status)),
    ]);
    return { products_page, product_detail };
  } finally {
    child.kill();
  }
}
