// The ceiling of this machine for `bench:catalog-scale`'s request mix: a bare
// node:http server in its own process (no Next, no database, no
// authentication; it answers a page and a detail our server answered), measured with the same clients, agent and request signing. A
// latency target this baseline misses cannot be met by any server here while
// the load generator shares the machine's cores (decision 0023).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type http from "node:http";
import { runFor, type LoadResult } from "./load";
import { freePort } from "./scale-server";
import { signedHttpRequest, type SupplierCredentials } from "./signed-fetch";

// The page is gzipped once, at the level the catalogue cache uses, and sent
// gzipped to a client that accepts it, as ours is once compressed.
const SERVER = `
const fs = require("node:fs"), http = require("node:http"), zlib = require("node:zlib");
const [pageFile, detailFile, port] = process.argv.slice(-3);
const page = fs.readFileSync(pageFile), detail = fs.readFileSync(detailFile);
const pageGzip = zlib.gzipSync(page, { level: 1 });
http.createServer((req, res) => {
  const gzip = req.url.startsWith("/page") && /gzip/.test(req.headers["accept-encoding"] || "");
  const body = req.url.startsWith("/page") ? (gzip ? pageGzip : page) : detail;
  const headers = { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length };
  if (gzip) headers["Content-Encoding"] = "gzip";
  res.writeHead(200, headers).end(body);
}).listen(Number(port), "127.0.0.1", () => console.log("ready"));
`;

export interface BareBaselineOptions {
  seconds: number;
  pageClients: number;
  detailClients: number;
  /** A products page and a product detail as our server answered them (decoded). */
  pageBody: Buffer;
  detailBody: Buffer;
  agent: http.Agent;
  creds: SupplierCredentials;
}

export async function bareBaseline(o: BareBaselineOptions): Promise<{ products_page: LoadResult; product_detail: LoadResult }> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-bare-"));
  const [pageFile, detailFile] = [path.join(dir, "page.json"), path.join(dir, "detail.json")];
  fs.writeFileSync(pageFile, o.pageBody);
  fs.writeFileSync(detailFile, o.detailBody);
  const child = spawn(process.execPath, ["-e", SERVER, "--", pageFile, detailFile, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
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
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
