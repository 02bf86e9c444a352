import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AnyAnswer } from "../testing/wire-types";
import { db } from "../db/client";
import { AppError } from "../errors";
import { signedHeaders } from "../protocol/client";
import { useTestDatabase } from "../testing/test-database";
import { makeBuyer } from "../testing/factories";
import { defineEndpoint, type EndpointContext } from "./define-endpoint";
import { endpointRequest } from "./endpoint-request";
import { toResponse, type Answer } from "./responses";
import { isPromise } from "../maybe";
import { HEADER_SIGNATURE } from "../protocol/headers";
import { anyString } from "@/lib/testing/matchers";

// The wrapper called in-process with a synthetic endpoint: the rules that no
// catalogue endpoint exercises on its own (body parsing, validation messages,
// the D8 replay hook, error mapping). Real PostgreSQL underneath.

let buyer: Awaited<ReturnType<typeof makeBuyer>>;
const seen: EndpointContext[] = [];

const endpoint = defineEndpoint({
  name: "test.echo",
  body: {
    U: z.object({ n: z.number().int().max(10), secret_note: z.string().max(5).optional() }),
    P: z.strictObject({ n: z.number().int().max(10), secret_note: z.string().max(5).optional() }),
  },
  allowReplay: (ctx) => Promise.resolve(ctx.body.n === 7),
  // eslint-disable-next-line @typescript-eslint/require-await -- a handler is async: its throws must reject, as a real handler's do
  handler: async (ctx) => {
    seen.push(ctx);
    if (ctx.body.n === 9) throw new Error("database said: value 'hunter2' violates something");
    if (ctx.body.n === 8) throw new AppError("sku_unavailable", 400, "sku not available");
    return { ok: true, n: ctx.body.n, replayed: ctx.replayed, profile: ctx.profile, params: ctx.params };
  },
});

async function call(segment: string, body: string, opts: { timestamp?: number; path?: string; id?: string } = {}) {
  const path = opts.path ?? `/api/v1/${segment}/echo`;
  const headers = signedHeaders(buyer, "POST", path, body, opts.timestamp);
  const req = endpointRequest({
    method: "POST",
    target: path,
    headers: new Headers(headers),
    acceptEncoding: null,
    body: () => Readable.from([Buffer.from(body)]),
  });
  const res = toResponse(
    await endpoint.serve(req, { segment, prefix: `/api/v1/${segment}`, params: opts.id ? { id: opts.id } : {}, dialect: "svc" }),
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as AnyAnswer & { replayed?: boolean } };
}

beforeAll(async () => {
  await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer();
});

describe("defineEndpoint: the one wrapper", () => {
  it("hands the handler profile, credential, validated body, params and raw body, and sets X-Request-Id", async () => {
    const r = await call("provider", '{"n":1}', { id: "42" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, n: 1, replayed: false, profile: "P", params: { id: "42" } });
    expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const ctx = seen.at(-1)!;
    expect(ctx.credential).toEqual({ id: buyer.id, userId: buyer.user.id, apiKey: buyer.apiKey, memberLevelId: buyer.user.memberLevelId });
    expect(ctx.rawBody).toBe('{"n":1}');
    expect(ctx.requestId).toBe(r.headers.get("x-request-id"));
  });

  it("answers 404 not_found for a profile segment other than upstream/provider", async () => {
    const r = await call("downstream", '{"n":1}');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ ok: false, error_code: "not_found", error_message: anyString() });
  });

  it("D17: validation names the field, never its value; P rejects unknown fields, U ignores them", async () => {
    const tooLong = await call("provider", '{"n":1,"secret_note":"do-not-echo-me"}');
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error_code).toBe("bad_request");
    expect(tooLong.body.error_message).toContain("secret_note");
    expect(tooLong.body.error_message).not.toContain("do-not-echo-me");

    const missing = await call("upstream", "{}");
    expect(missing.body).toMatchObject({ error_code: "bad_request", error_message: 'field "n" is required' });

    const unknownP = await call("provider", '{"n":1,"callback_url":"http://x"}');
    expect(unknownP.status).toBe(400);
    expect(unknownP.body.error_message).toContain("callback_url");
    expect((await call("upstream", '{"n":1,"extra":true}')).status).toBe(200);
  });

  it("D17: P body errors — duplicate key and unparseable → invalid_json, non-object → bad_request; U → bad_request", async () => {
    expect((await call("provider", '{"n":1,"n":2}')).body.error_code).toBe("invalid_json");
    expect((await call("provider", '{"n":')).body.error_code).toBe("invalid_json");
    expect((await call("provider", "[1]")).body.error_code).toBe("bad_request");
    expect((await call("provider", "")).body.error_code).toBe("bad_request");
    expect((await call("upstream", '{"n":')).body.error_code).toBe("bad_request");
    const dupU = await call("upstream", '{"n":1,"n":2}');
    expect(dupU.body).toMatchObject({ ok: true, n: 2 });
  });

  it("maps AppError to its code and status, and unknown errors to 500 internal_error without their message", async () => {
    const known = await call("upstream", '{"n":8}');
    expect(known.status).toBe(400);
    expect(known.body).toEqual({ ok: false, error_code: "sku_unavailable", error_message: "sku not available" });
    const unknown = await call("upstream", '{"n":9}');
    expect(unknown.status).toBe(500);
    expect(unknown.body).toEqual({ ok: false, error_code: "internal_error", error_message: "internal error" });
  });

  it("D8: a replayed P request is 409 unless allowReplay lets it through, then the handler sees replayed=true", async () => {
    const ts = Math.floor(Date.now() / 1000);
    expect((await call("provider", '{"n":3}', { timestamp: ts })).status).toBe(200);
    const again = await call("provider", '{"n":3}', { timestamp: ts });
    expect(again.status).toBe(409);
    expect(again.body.error_code).toBe("replay_detected");

    expect((await call("provider", '{"n":7}', { timestamp: ts })).body.replayed).toBe(false);
    const allowed = await call("provider", '{"n":7}', { timestamp: ts });
    expect(allowed.status).toBe(200);
    expect(allowed.body.replayed).toBe(true);

    // A replay whose body fails validation is still a replay (D7 order).
    const bad = '{"n":1,"n":1}';
    expect((await call("provider", bad, { timestamp: ts })).body.error_code).toBe("invalid_json");
    expect((await call("provider", bad, { timestamp: ts })).body.error_code).toBe("replay_detected");
  });

  it("D8 holds across instances: the record is in PostgreSQL; Profile U has no replay protection", async () => {
    const ts = Math.floor(Date.now() / 1000);
    expect((await call("provider", '{"n":4}', { timestamp: ts })).status).toBe(200);
    const rows = await db().replayRecord.count({ where: { credentialId: buyer.id, timestamp: BigInt(ts) } });
    expect(rows).toBeGreaterThan(0);
    expect((await call("upstream", '{"n":4}', { timestamp: ts })).status).toBe(200);
    expect((await call("upstream", '{"n":4}', { timestamp: ts })).status).toBe(200);
  });

  it("updates ApiCredential.lastUsedAt, at most about once a minute per key (a hot row)", async () => {
    const fresh = await makeBuyer();
    const saved = buyer;
    buyer = fresh;
    try {
      await call("upstream", '{"n":1}');
      await new Promise((r) => setTimeout(r, 200));
      const first = (await db().apiCredential.findUniqueOrThrow({ where: { id: fresh.id } })).lastUsedAt;
      expect(first).toBeInstanceOf(Date);
      await call("upstream", '{"n":2}');
      await new Promise((r) => setTimeout(r, 200));
      expect((await db().apiCredential.findUniqueOrThrow({ where: { id: fresh.id } })).lastUsedAt).toEqual(first);
    } finally {
      buyer = saved;
    }
  });
});

describe("issue 40.4 (decision 0100): a read with everything at hand is answered in the turn it arrived", () => {
  const read = defineEndpoint({ name: "test.read", handler: (ctx) => ({ ok: true, profile: ctx.profile }) });
  const get = (unsigned = false) => {
    const path = "/api/v1/upstream/read";
    const headers = new Headers(signedHeaders(buyer, "GET", path, ""));
    if (unsigned) headers.delete(HEADER_SIGNATURE);
    const req = endpointRequest({ method: "GET", target: path, headers, acceptEncoding: null, body: () => null });
    return read.serve(req, { segment: "upstream", prefix: "/api/v1/upstream", params: {}, dialect: "svc" });
  };

  it("no promise once the key, the settings and the rate allowance are cached; nor for a request without a signature", async () => {
    // The first reads wait for the key, the settings and a block of the rate limit (each kept about a second).
    let answer = get();
    for (let i = 0; i < 5 && isPromise(answer); i++) {
      await answer;
      answer = get();
    }
    expect(isPromise(answer)).toBe(false);
    expect((answer as Answer).status).toBe(200);
    expect(JSON.parse(Buffer.from((answer as Answer).body).toString())).toEqual({ ok: true, profile: "U" });
    // (A wrong signature is not refused at once: the key is looked up again first, in case its secret was just rotated.)
    const refused = get(true);
    expect(isPromise(refused)).toBe(false);
    expect((refused as Answer).status).toBe(401);
  });
});
