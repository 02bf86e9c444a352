// The ceiling of this machine for `bench:catalog-scale`'s request mix: a bare
// node:http server in its own process (no Next, no database, no
// authentication; it answers a page and a detail as our server answered
// them), measured with the same reader processes and request signing. A
// latency target this baseline misses cannot be met by any server here while
// the load generator shares the machine's cores (decisions 0023, 0026).
//
// Issue 28.2 (decision 0046): our server and the bare one are read in
// alternating rounds, not one after the other. On this shared machine the
// bare figures of two phases a minute apart differed by up to two-fold (866
// and 1,766 pages/s), so a ratio of one phase to a later one measured the
// neighbours as much as the server. Each round reads ours, then bare; the
// ratios are taken per round and their median reported.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LoadResult } from "./load";
import type { ReadResult, startReaders } from "./read-clients";
import { freePort } from "./scale-server";

type Readers = ReturnType<typeof startReaders>;

// The same representation as ours (issue 40.2): a page or detail that our
// server sent gzipped (`gzip`, seen by the bench) is gzipped once, at the
// level the catalogue cache uses, and sent gzipped to a client that accepts
// it; one ours sent plain is sent plain.
const SERVER = `
const fs = require("node:fs"), http = require("node:http"), zlib = require("node:zlib");
const [pageFile, detailFile, gzipKinds, port] = process.argv.slice(-4);
const plain = { page: fs.readFileSync(pageFile), detail: fs.readFileSync(detailFile) };
const packed = {};
for (const kind of gzipKinds.split(",").filter(Boolean)) packed[kind] = zlib.gzipSync(plain[kind], { level: 1 });
http.createServer((req, res) => {
  const kind = req.url.startsWith("/page") ? "page" : "detail";
  const gzip = packed[kind] !== undefined && /gzip/.test(req.headers["accept-encoding"] || "");
  const body = gzip ? packed[kind] : plain[kind];
  const headers = { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length };
  if (gzip) headers["Content-Encoding"] = "gzip";
  res.writeHead(200, headers).end(body);
}).listen(Number(port), "127.0.0.1", () => console.log("ready"));
`;

/** Starts the bare server answering `pageBody` at /page and `detailBody` at /detail (decoded bodies, as ours answered them). */
export async function startBareServer(o: {
  pageBody: Buffer;
  detailBody: Buffer;
  gzip: { page: boolean; detail: boolean };
  port?: number;
}) {
  const port = o.port ?? (await freePort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-bare-"));
  const [pageFile, detailFile] = [path.join(dir, "page.json"), path.join(dir, "detail.json")];
  fs.writeFileSync(pageFile, o.pageBody);
  fs.writeFileSync(detailFile, o.detailBody);
  const child = spawn(process.execPath, ["-e", SERVER, "--", pageFile, detailFile, gzipKinds(o.gzip), String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stop = () => {
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`the bare baseline server exited (${code})`)));
    });
  } catch (err) {
    stop();
    throw err;
  }
  return { base: `http://127.0.0.1:${port}`, stop };
}

const gzipKinds = (g: { page: boolean; detail: boolean }) => (["page", "detail"] as const).filter((k) => g[k]).join(",");

export interface Side {
  base: string;
  pagePaths: string[];
  detailPaths: string[];
}
type Read = (readers: Readers, base: string, paths: string[], seconds: number) => Promise<ReadResult>;
export interface RoundsResult {
  ours: { page: ReadResult; detail: ReadResult };
  bare?: { page: LoadResult; detail: LoadResult };
  /** Per round: ours / bare (page p99, pages/s, detail p99). */
  rounds: { page_p99: number; pages_per_second: number; detail_p99: number }[];
}

/** `rounds` rounds of `seconds / rounds` on ours then `bareSeconds / rounds` on bare (none when 0), the same readers. */
export async function interleaved(o: {
  readers: { page: Readers; detail: Readers };
  read: Read;
  ours: Side;
  bare?: Side;
  rounds: number;
  seconds: number;
  bareSeconds: number;
}): Promise<RoundsResult> {
  const side = async (s: Side, secs: number) => {
    const [page, detail] = await Promise.all([
      o.read(o.readers.page, s.base, s.pagePaths, secs),
      o.read(o.readers.detail, s.base, s.detailPaths, secs),
    ]);
    return { page, detail };
  };
  const ours: { page: ReadResult; detail: ReadResult }[] = [];
  const bare: { page: ReadResult; detail: ReadResult }[] = [];
  for (let r = 0; r < o.rounds; r++) {
    ours.push(await side(o.ours, o.seconds / o.rounds));
    if (o.bare && o.bareSeconds > 0) bare.push(await side(o.bare, o.bareSeconds / o.rounds));
  }
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return {
    ours: {
      page: { ...ours.at(-1)!.page, load: merged(ours.map((x) => x.page.load)) },
      detail: { ...ours.at(-1)!.detail, load: merged(ours.map((x) => x.detail.load)) },
    },
    bare: bare.length ? { page: merged(bare.map((x) => x.page.load)), detail: merged(bare.map((x) => x.detail.load)) } : undefined,
    rounds: bare.map((b, i) => ({
      page_p99: ratio(ours[i].page.load.p99_ms, b.page.load.p99_ms),
      pages_per_second: ratio(ours[i].page.load.requests_per_second, b.page.load.requests_per_second),
      detail_p99: ratio(ours[i].detail.load.p99_ms, b.detail.load.p99_ms),
    })),
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;

/** Rounds of one kind as one figure: counts and rate over all rounds, p50 and p99 the rounds' median, max the largest. */
function merged(loads: LoadResult[]): LoadResult {
  const sum = (f: (l: LoadResult) => number) => loads.reduce((n, l) => n + f(l), 0);
  const errorKinds: Record<string, number> = {};
  for (const l of loads) for (const [k, n] of Object.entries(l.errorKinds)) errorKinds[k] = (errorKinds[k] ?? 0) + n;
  const seconds = sum((l) => l.seconds);
  return {
    requests: sum((l) => l.requests),
    concurrency: loads[0].concurrency,
    errors: sum((l) => l.errors),
    errorKinds,
    seconds,
    requests_per_second: Math.round((sum((l) => l.requests) / seconds) * 100) / 100,
    p50_ms: median(loads.map((l) => l.p50_ms)),
    p99_ms: median(loads.map((l) => l.p99_ms)),
    max_ms: Math.max(...loads.map((l) => l.max_ms)),
  };
}
