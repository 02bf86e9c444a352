import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReaders } from "./read-clients";

// Decision 0026: bench:catalog-scale's readers run in a process of their own,
// decode and parse one answer in twenty, and count the rest by the size a
// gzip trailer states; a body that fails the check is an error, not a read.
const page = Buffer.from(JSON.stringify({ ok: true, items: Array.from({ length: 200 }, (_, id) => ({ id, name: `product ${id}` })) }));
const gzipped = zlib.gzipSync(page);
const truncated = gzipped.subarray(0, gzipped.length - 8); // a body cut short: no trailer
let server: http.Server;
let base = "";
const readers = startReaders(2);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    // /plain-page: the page, gzipped only for a client that accepts gzip.
    const gzip = req.url !== "/plain" && /gzip/.test(String(req.headers["accept-encoding"]));
    const body =
      req.url === "/plain-page"
        ? gzip
          ? gzipped
          : page
        : req.url === "/page"
          ? gzipped
          : req.url === "/cut"
            ? truncated
            : Buffer.from("not json");
    const headers: Record<string, string> = { "Content-Length": String(body.length) };
    if (gzip) headers["Content-Encoding"] = "gzip";
    res.writeHead(200, headers).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  readers.stop();
  server.close();
});

describe("bench readers (decision 0026)", () => {
  it("count a gzipped page by its stated size, decode a sample, and keep it", async () => {
    const r = await readers.run({ base, paths: ["/page"], seconds: 0.5, apiKey: "k", apiSecret: "s" });
    expect(r.load.errors).toBe(0);
    expect(r.load.requests).toBeGreaterThan(20);
    expect(r.bytes).toBe(page.length);
    expect(r.wireBytes).toBe(gzipped.length);
    expect(r.sample.equals(page)).toBe(true);
  });

  it("issue 28.2: take every answer uncompressed and parse each one when asked to", async () => {
    const r = await readers.run({ base, paths: ["/plain-page"], seconds: 0.3, apiKey: "k", apiSecret: "s", gzip: false, checkEvery: 1 });
    expect(r.load.errors).toBe(0);
    expect(r.bytes).toBe(page.length);
    expect(r.wireBytes).toBe(page.length);
    expect(r.sample.equals(page)).toBe(true);
    const bad = await readers.run({ base, paths: ["/plain"], seconds: 0.3, apiKey: "k", apiSecret: "s", gzip: false, checkEvery: 1 });
    expect(bad.load.errorKinds["bad_body:json"]).toBe(bad.load.requests);
  });

  it("count a body that does not decode or parse as an error", async () => {
    const cut = await readers.run({ base, paths: ["/cut"], seconds: 0.3, apiKey: "k", apiSecret: "s" });
    expect(cut.load.errorKinds["bad_body:gzip"]).toBeGreaterThan(0);
    const plain = await readers.run({ base, paths: ["/plain"], seconds: 0.3, apiKey: "k", apiSecret: "s" });
    expect(plain.load.errorKinds["bad_body:json"]).toBeGreaterThan(0);
  });
});
