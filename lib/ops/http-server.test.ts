import http from "node:http";
import net from "node:net";
import crypto from "node:crypto";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP, MAX_BODY_BYTES } from "@/lib/protocol/headers";
import { ALL_PREFIXES } from "@/lib/protocol/profiles";
import { signRequest } from "@/lib/protocol/signing";
import { useTestDatabase } from "@/lib/testing/test-database";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeBuyer } from "@/lib/testing/factories";
import { rawRequest, signedRawRequest, type Creds } from "@/lib/testing/test-client";
import type { AnyAnswer } from "../testing/wire-types";
import { anyString } from "@/lib/testing/matchers";

// Issue 22.2 and 22.7 against the real server over real sockets: what an
// unauthenticated client can make the server do (answer before the body,
// close, time out, count connections and failures per address), and the
// headers every supplier API answer carries. Client hosts are loopback
// addresses of their own (127.0.0.2…), so each has its own limits.

let server: AppServer;
let port: number;
let buyer: Creds;
let disabled: Creds;

beforeAll(async () => {
  const url = await useTestDatabase();
  // The pings of this file are not what the D31 limits are about.
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer();
  const off = await makeBuyer();
  await db().apiCredential.update({ where: { id: off.id }, data: { isActive: false, disabledAt: new Date() } });
  disabled = off;
  server = await startAppServer(url);
  port = Number(new URL(server.baseUrl).port);
});
afterAll(async () => {
  await server?.stop();
});

interface Exchange {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection within the wait. */
  closed: boolean;
  /** Milliseconds until the first byte of the answer (Infinity: none). */
  answeredMs: number;
}

/** Writes `head` (and `body`) on a fresh socket and reads whatever comes back within `waitMs`. */
function exchange(head: string, opts: { localAddress?: string; body?: string; waitMs: number }): Promise<Exchange> {
  return new Promise((resolve) => {
    const started = performance.now();
    let answeredMs = Infinity;
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: "127.0.0.1", port, localAddress: opts.localAddress });
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("utf8");
      const [top, ...rest] = text.split("\r\n\r\n");
      const [statusLine, ...lines] = top.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body: rest.join("\r\n\r\n"), closed, answeredMs });
    };
    const timer = setTimeout(() => done(false), opts.waitMs);
    socket.on("data", (c: Buffer) => {
      if (answeredMs === Infinity) answeredMs = performance.now() - started;
      chunks.push(c);
    });
    socket.on("error", () => undefined);
    socket.on("close", () => done(true));
    socket.write(head + "\r\n");
    if (opts.body) socket.write(opts.body);
  });
}

function signedHead(creds: Creds, method: string, path: string, body: string, extra: string[] = []): string {
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = signRequest({ method, path: path.split("?")[0], timestamp: ts, body, secret: creds.apiSecret });
  return [
    `${method} ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    `${HEADER_API_KEY}: ${creds.apiKey}`,
    `${HEADER_TIMESTAMP}: ${ts}`,
    `${HEADER_SIGNATURE}: ${signature}`,
    "Content-Type: application/json",
    ...extra,
    "",
  ].join("\r\n");
}

/** The attacker of the flood test: plain JavaScript for a worker thread; posts its answers' statuses. */
const ATTACKER = `
const http = require("node:http");
const crypto = require("node:crypto");
const { parentPort, workerData } = require("node:worker_threads");
const { port, requests, concurrency } = workerData;
const statuses = {};
let sent = 0;
const attack = () => new Promise((resolve) => {
  const req = http.request({
    host: "127.0.0.1", port, method: "GET", path: "/api/v1/provider/ping", localAddress: "127.0.0.4", agent: false,
    headers: {
      "${HEADER_API_KEY}": "sk_" + crypto.randomBytes(12).toString("hex"),
      "${HEADER_TIMESTAMP}": String(Math.floor(Date.now() / 1000)),
      "${HEADER_SIGNATURE}": crypto.randomBytes(32).toString("hex"),
    },
  }, (res) => {
    res.resume();
    res.on("end", () => resolve(String(res.statusCode)));
    res.on("error", () => resolve("error"));
  });
  req.on("error", () => resolve("error"));
  req.end();
});
Promise.all(Array.from({ length: concurrency }, async () => {
  while (sent < requests) {
    sent++;
    const status = await attack();
    statuses[status] = (statuses[status] || 0) + 1;
  }
})).then(() => parentPort.postMessage(statuses));
`;

describe("issue 22.2: unauthenticated clients cannot hold the server", () => {
  it("issue 22.2: a request that fails the header checks is answered before its body arrives, and its connection is closed", async () => {
    const body = JSON.stringify({ downstream_order_no: "x", sku_id: 1, quantity: 1 });
    const unknown: Creds = { apiKey: "sk_unknown_" + crypto.randomBytes(8).toString("hex"), apiSecret: "nope" };
    const cases: Record<string, string> = {
      "no Svc-* headers": ["POST /api/v1/provider/orders HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", ""].join("\r\n"),
      "timestamp out of the window": signedHead(buyer, "POST", "/v1/upstream/orders", body).replace(
        /Svc-Timestamp: \d+/,
        `Svc-Timestamp: ${Math.floor(Date.now() / 1000) - 600}`,
      ),
      "unknown key": signedHead(unknown, "POST", "/api/v1/provider/orders", body),
      "disabled key": signedHead(disabled, "POST", "/v1/provider/orders", body),
    };
    for (const [name, head] of Object.entries(cases)) {
      // The body is declared but never sent: the old pipeline waited for it before it looked at the headers.
      const res = await exchange(`${head}Content-Length: ${body.length}\r\n`, { localAddress: "127.0.0.5", waitMs: 5000 });
      expect(res.status, name).toBe(401);
      expect(JSON.parse(res.body), name).toEqual({ ok: false, error_code: "unauthorized", error_message: anyString() });
      expect(res.headers.connection, name).toBe("close");
      expect(res.closed, `${name}: the server closes the connection`).toBe(true);
    }
    // D7: a declared body over 1 MiB is still refused for its size first.
    const big = await exchange(`${cases["unknown key"]}Content-Length: ${MAX_BODY_BYTES + 1}\r\n`, {
      localAddress: "127.0.0.5",
      waitMs: 5000,
    });
    expect([big.status, (JSON.parse(big.body) as AnyAnswer).error_code]).toEqual([413, "request_too_large"]);
    // A correctly signed request still reads its body and is answered as before.
    const ok = await exchange(`${signedHead(buyer, "POST", "/api/v1/upstream/ping", "{}")}Content-Length: 2\r\n`, {
      localAddress: "127.0.0.5",
      body: "{}",
      waitMs: 5000,
    });
    expect(ok.status).toBe(200);
  });

  it("issue 22.2: the upstream callback URL (unauthenticated by design) also answers a caller that fails the header checks before its body arrives, and closes", async () => {
    const head = ["POST /api/upstream-callbacks/1 HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", ""].join("\r\n");
    const res = await exchange(`${head}Content-Length: 100\r\n`, { localAddress: "127.0.0.7", waitMs: 10_000 });
    expect(res.status).toBe(401); // before: the 15 s body wait, then 408
    const json = (body: string) => JSON.parse(body.slice(body.indexOf("{"), body.lastIndexOf("}") + 1)) as AnyAnswer; // Next answers chunked
    expect(json(res.body)).toEqual({ ok: false, error_code: "unauthorized", error_message: anyString() });
    expect(res.closed).toBe(true);
    const big = await exchange(`${head}Content-Length: ${MAX_BODY_BYTES + 1}\r\n`, { localAddress: "127.0.0.7", waitMs: 10_000 });
    expect([big.status, json(big.body).error_code]).toEqual([413, "request_too_large"]); // D7 first
  }, 30_000);

  it("issue 22.2: a body that does not arrive within 15 s is answered 408 request_timeout (D1 body) and the connection closed", async () => {
    const head = signedHead(buyer, "POST", "/api/v1/upstream/ping", "{}");
    // Two of the ten declared bytes arrive, the rest never does.
    const res = await exchange(`${head}Content-Length: 10\r\n`, { localAddress: "127.0.0.6", body: "{}", waitMs: 30_000 });
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toEqual({ ok: false, error_code: "request_timeout", error_message: anyString() });
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.answeredMs).toBeGreaterThan(14_000);
    expect(res.answeredMs).toBeLessThan(25_000);
    expect(res.closed).toBe(true);
  }, 60_000);

  it("issue 22.2: 500 slow connections from one address and 20,000 requests with random keys leave a signed ping from another address answering within 200 ms", async () => {
    // 1. 500 connections from 127.0.0.3 that send half a request header and then nothing.
    const slow: net.Socket[] = [];
    let refused = 0;
    await Promise.all(
      Array.from(
        { length: 500 },
        () =>
          new Promise<void>((resolve) => {
            const s = net.connect({ host: "127.0.0.1", port, localAddress: "127.0.0.3" });
            slow.push(s);
            s.on("error", () => undefined);
            s.once("connect", () => {
              s.write("GET /api/v1/upstream/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n");
              resolve();
            });
            s.once("close", () => {
              refused++;
              resolve();
            });
          }),
      ),
    );
    // The kernel completes a handshake before the server accepts the socket; on a busy machine the
    // server may take a moment to accept (and close) the last ones.
    const held = () => slow.filter((s) => !s.destroyed && s.readyState === "open").length;
    await expect.poll(held, { timeout: 10_000, interval: 200 }).toBeLessThanOrEqual(256);
    expect(refused, `held ${held()}, closed ${refused}`).toBeGreaterThanOrEqual(244);

    // 2. A signed ping from 127.0.0.2 every 100 ms while the flood runs, on a kept-alive
    //    connection, timed to the last byte of its answer.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const ping = () =>
      new Promise<number>((resolve, reject) => {
        const ts = String(Math.floor(Date.now() / 1000));
        const signature = signRequest({ method: "GET", path: "/api/v1/upstream/ping", timestamp: ts, secret: buyer.apiSecret });
        const started = performance.now();
        http
          .get(
            {
              host: "127.0.0.1",
              port,
              path: "/api/v1/upstream/ping",
              localAddress: "127.0.0.2",
              agent,
              headers: { [HEADER_API_KEY]: buyer.apiKey, [HEADER_TIMESTAMP]: ts, [HEADER_SIGNATURE]: signature },
            },
            (res) => {
              res.resume();
              res.on("end", () =>
                res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`ping answered ${res.statusCode}`)),
              );
            },
          )
          .on("error", reject);
      });
    for (let i = 0; i < 5; i++) await ping(); // warm: key cached, code paths compiled
    // The same pings without the flood: what this machine manages at the moment.
    const quiet: number[] = [];
    for (let i = 0; i < 20; i++) {
      quiet.push(await ping());
      await new Promise((r) => setTimeout(r, 50));
    }
    let flooding = true;
    const latencies: number[] = [];
    const pinger = (async () => {
      while (flooding) {
        latencies.push(await ping());
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    // 3. 20,000 requests with random keys from 127.0.0.4, 8 at a time, from a thread of
    //    their own (so the attacker's callbacks never delay the ping's in this thread).
    const started = performance.now();
    const statuses = await new Promise<Record<string, number>>((resolve, reject) => {
      const worker = new Worker(ATTACKER, { eval: true, workerData: { port, requests: 20_000, concurrency: 8 } });
      worker.once("message", resolve).once("error", reject);
    });
    flooding = false;
    await pinger;
    agent.destroy();
    const floodMs = performance.now() - started;
    for (const s of slow) s.destroy();

    const p = (values: number[], q: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
    };
    const at = (q: number) => p(latencies, q);
    const bound = Math.max(200, 2 * p(quiet, 0.95));
    const summary = JSON.stringify({
      statuses,
      floodMs: Math.round(floodMs),
      pings: latencies.length,
      p50: at(0.5),
      p95: at(0.95),
      max: at(1),
      quietP50: p(quiet, 0.5),
      quietP95: p(quiet, 0.95),
      bound,
    });
    // Every random key was refused; past the per-address limit on failed authentications with 429.
    expect(
      Object.keys(statuses).every((s) => s === "401" || s === "429" || s === "error"),
      summary,
    ).toBe(true);
    expect(statuses["429"] ?? 0, summary).toBeGreaterThan(15_000);
    expect(statuses.error ?? 0, summary).toBeLessThan(200);
    expect(latencies.length, summary).toBeGreaterThanOrEqual(5);
    // Within 200 ms. On a shared 2-core machine the scheduler alone can stall the server (or this
    // test) longer than that now and then, whatever it serves: one ping in twenty may be late, and
    // when the machine is so busy that even the quiet pings take over 100 ms, the flood may at most
    // double them.
    expect(at(0.95), summary).toBeLessThan(bound);
    // The known key was never evicted by the unknown ones: still answered from the cache.
    expect(await ping(), summary).toBeLessThan(bound);
  }, 180_000);
});

describe("issue 22.7: every supplier API answer carries Cache-Control: no-store and X-Content-Type-Options: nosniff", () => {
  it("issue 22.7: success, errors, 404, 405, HEAD, OPTIONS, early answers and gzipped catalogue pages, under all four prefixes", async () => {
    const checked: string[] = [];
    const expectHeaders = (what: string, headers: http.IncomingHttpHeaders | Record<string, string>) => {
      expect(headers["cache-control"], what).toBe("no-store");
      expect(headers["x-content-type-options"], what).toBe("nosniff");
      checked.push(what);
    };
    for (const { prefix } of ALL_PREFIXES) {
      const get = (path: string, extra: Partial<Parameters<typeof signedRawRequest>[2]> = {}) =>
        signedRawRequest(server.baseUrl, buyer, { method: "GET", path: prefix + path, ...extra });
      expectHeaders(`${prefix} ping 200`, (await get("/ping")).headers);
      expectHeaders(`${prefix} products gzip`, (await get("/products?page=1", { headers: { "Accept-Encoding": "gzip" } })).headers);
      expectHeaders(`${prefix} product 404`, (await get("/products/999999")).headers);
      expectHeaders(
        `${prefix} 401`,
        (await signedRawRequest(server.baseUrl, { ...buyer, apiSecret: "wrong" }, { method: "GET", path: `${prefix}/ping` })).headers,
      );
      expectHeaders(
        `${prefix} 413`,
        (await rawRequest(server.baseUrl, { method: "POST", path: `${prefix}/ping`, body: Buffer.alloc(MAX_BODY_BYTES + 1, 0x20) }))
          .headers,
      );
      expectHeaders(
        `${prefix} unknown path 404`,
        (await rawRequest(server.baseUrl, { method: "GET", path: `${prefix}/nothing-here` })).headers,
      );
      expectHeaders(`${prefix} 405`, (await rawRequest(server.baseUrl, { method: "PATCH", path: `${prefix}/ping` })).headers);
      expectHeaders(`${prefix} HEAD`, (await rawRequest(server.baseUrl, { method: "HEAD", path: `${prefix}/ping` })).headers);
      expectHeaders(`${prefix} OPTIONS`, (await rawRequest(server.baseUrl, { method: "OPTIONS", path: `${prefix}/ping` })).headers);
      // Answered by our server before Next (issues 8.1, 8.2): broken percent-encoding, an empty segment.
      expectHeaders(
        `${prefix} early 400`,
        (await exchange(`GET ${prefix}/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`, { waitMs: 5000 })).headers,
      );
      expectHeaders(
        `${prefix} early 404`,
        (await exchange(`GET ${prefix}//ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`, { waitMs: 5000 })).headers,
      );
    }
    expect(checked.length).toBe(ALL_PREFIXES.length * 11);
  });
});
