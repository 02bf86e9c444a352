// Closed-loop catalogue readers in a process of their own, for
// `bench:catalog-scale`: the page readers and the detail readers each get
// one, as separate downstreams would, so a detail's latency is not also the
// time its answer waited in a load generator's event loop busy with 24 page
// readers' answers (their decoding included). The parent sends one JSON
// command a line on stdin and reads one JSON result a line on stdout:
//
//   { "base": "http://127.0.0.1:P", "paths": ["{prefix}/products/7", …],
//     "seconds": 30, "apiKey": "…", "apiSecret": "…" }
//   → { "load": LoadResult, "bytes": …, "wireBytes": …, "sample": "<last body, base64>" }
//
// Each command runs `clients` (argv[2]) readers, each requesting a random
// path of the list, signed and accepting gzip, for `seconds`. Every
// CHECK_EVERY-th answer is decoded (zlib checks the gzip trailer's CRC and
// size) and parsed; the others are counted by the size a gzip member states
// in its last four bytes. Decoding every 145 KB page took the page readers
// about 0.3 ms of CPU each, as much of the two shared cores as a third of
// the server's own work: the figures measured the load generator's
// decoding more than the server (issue 13.4). A real downstream decodes on
// its own machine. For the same reason the readers send their requests with
// undici, not node:http: against a bare server answering a gzipped page, the
// node:http client cost about 180 µs of CPU a request, two and a half times
// the server's own, undici about 55 µs; on two shared cores the load
// generator's CPU is taken from the server under test.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { runFor, type LoadResult } from "./load";
import { signedHeaders, type SupplierCredentials } from "./signed-fetch";

/** An answer as it came on the wire (gzipped bodies not decoded). */
interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const CHECK_EVERY = 20;

export interface ReadCommand extends SupplierCredentials {
  base: string;
  paths: string[];
  seconds: number;
  /** Send `Accept-Encoding: gzip` (the default), or take every answer uncompressed (issue 28.2's readers). */
  gzip?: boolean;
  /** Decode and parse every n-th answer (default CHECK_EVERY; 1: every answer, as issue 28.2 measured). */
  checkEvery?: number;
}

export interface ReadResult {
  load: LoadResult;
  /** Average body bytes (decoded), and on the wire. */
  bytes: number;
  wireBytes: number;
  /** The last body checked, decoded. */
  sample: Buffer;
}

/** The readers' process, started once; `run` sends it a command and waits for its result. */
export function startReaders(clients: number): { run(cmd: ReadCommand): Promise<ReadResult>; stop(): void } {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), String(clients)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  return {
    run: (cmd) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the readers' process exited (${code})`));
        child.once("exit", onExit);
        waiting.push((line) => {
          child.off("exit", onExit);
          const r = JSON.parse(line) as Omit<ReadResult, "sample"> & { sample: string };
          resolve({ ...r, sample: Buffer.from(r.sample, "base64") });
        });
        child.stdin!.write(`${JSON.stringify(cmd)}\n`);
      }),
    stop: () => child.kill(),
  };
}

async function serve(clients: number) {
  const pools = new Map<string, Pool>();
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const cmd = JSON.parse(line) as ReadCommand;
    let pool = pools.get(cmd.base);
    if (!pool) pools.set(cmd.base, (pool = new Pool(cmd.base, { connections: clients })));
    // n: answers read; seen: answers received (every CHECK_EVERY-th is checked).
    const totals = { bytes: 0, wire: 0, n: 0, seen: 0, sample: Buffer.alloc(0) as Buffer };
    const load = await runFor(cmd.seconds, clients, async () => {
      const res = await signedGet(pool, cmd, cmd.paths[Math.floor(Math.random() * cmd.paths.length)], cmd.gzip ?? true);
      if (res.status !== 200) return `http:${res.status}`;
      const checked = totals.seen++ % (cmd.checkEvery ?? CHECK_EVERY) === 0 ? checkedBody(res) : undefined;
      if (typeof checked === "string") return checked;
      if (checked) totals.sample = checked;
      const bytes = checked?.length ?? statedSize(res);
      if (bytes === undefined) return "bad_body:gzip";
      totals.bytes += bytes;
      totals.wire += res.body.length;
      totals.n++;
      return true;
    });
    const avg = (x: number) => Math.round(x / Math.max(1, totals.n));
    process.stdout.write(
      `${JSON.stringify({ load, bytes: avg(totals.bytes), wireBytes: avg(totals.wire), sample: totals.sample.toString("base64") })}\n`,
    );
  }
}

/** A signed GET of `path` (with its query), accepting gzip or not, on one of the pool's keep-alive connections; the body as it came. */
async function signedGet(pool: Pool, creds: SupplierCredentials, path: string, gzip: boolean): Promise<Reply> {
  const headers = { ...signedHeaders(creds, "GET", path, ""), "Accept-Encoding": gzip ? "gzip" : "identity" };
  const res = await pool.request({ path, method: "GET", headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, body, headers: res.headers };
}

const isGzip = (res: Reply) => res.headers["content-encoding"] === "gzip";

/** The body decoded and parsed, or the error kind. */
function checkedBody(res: Reply): Buffer | string {
  let body: Buffer;
  try {
    body = isGzip(res) ? zlib.gunzipSync(res.body) : res.body;
  } catch {
    return "bad_body:gzip";
  }
  try {
    JSON.parse(body.toString("utf8"));
  } catch {
    return "bad_body:json";
  }
  return body;
}

/** The body's size: a gzip member states its input's size (mod 2^32, here under 4 GiB) in its last four bytes (RFC 1952). */
function statedSize(res: Reply): number | undefined {
  if (!isGzip(res)) return res.body.length;
  const looksGzip = res.body.length >= 18 && res.body[0] === 0x1f && res.body[1] === 0x8b;
  return looksGzip ? res.body.readUInt32LE(res.body.length - 4) : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await serve(Number(process.argv[2]));
