// The ceiling of this machine for `bench:catalog-scale`'s request mix: a bare
// node:http server in its own process (no Next, no database, no
// authentication; it answers a page and a detail as our server answered
// them), measured with the same reader processes and request signing. A
// latency target this baseline misses cannot be met by any server here while
// the load generator shares the machine's cores (decisions 0023, 0026).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LoadResult } from "./load";
import type { startReaders } from "./read-clients";
import { freePort } from "./scale-server";
import type { SupplierCredentials } from "./signed-fetch";

type Readers = ReturnType<typeof startReaders>;

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
  /** The bench's reader processes (read-clients.ts). */
  readers: { page: Readers; detail: Readers };
  /** A products page and a product detail as our server answered them (decoded). */
  pageBody: Buffer;
  detailBody: Buffer;
  creds: SupplierCredentials;
  /** The readers' encoding and checking, as against our server. */
  readMode?: { gzip: boolean; checkEvery: number };
  /** Where the bare server listens (default: a free port). */
  port?: number;
}

export async function bareBaseline(o: BareBaselineOptions): Promise<{ products_page: LoadResult; product_detail: LoadResult }> {
  const port = o.port ?? (await freePort());
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
    const [page, detail] = await Promise.all([
      o.readers.page.run({ ...o.creds, ...o.readMode, base, paths: ["/page"], seconds: o.seconds }),
      o.readers.detail.run({ ...o.creds, ...o.readMode, base, paths: ["/detail"], seconds: o.seconds }),
    ]);
    const [products_page, product_detail] = [page.load, detail.load];
    return { products_page, product_detail };
  } finally {
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
