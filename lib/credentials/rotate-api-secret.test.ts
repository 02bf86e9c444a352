import { beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP } from "../protocol/headers";
import { signRequest } from "../protocol/signing";
import { authenticate } from "../supplier-api/authenticate";
import { makeBuyer } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { rotateApiSecret } from "./rotate-api-secret";

// Decision 0039 at the key look-up itself: which secrets sign after a rotation.

beforeAll(async () => {
  await useTestDatabase();
});

async function signs(apiKey: string, secret: string): Promise<boolean> {
  const ts = String(Math.floor(Date.now() / 1000));
  const headers = new Map([
    [HEADER_API_KEY.toLowerCase(), apiKey],
    [HEADER_TIMESTAMP.toLowerCase(), ts],
    [HEADER_SIGNATURE.toLowerCase(), signRequest({ method: "GET", path: "/api/v1/provider/ping", timestamp: ts, secret })],
  ]);
  const req = { method: "GET", headers: { get: (n: string) => headers.get(n.toLowerCase()) ?? null } };
  try {
    await authenticate(req, "/api/v1/provider/ping", () => Promise.resolve(Buffer.alloc(0)), null);
    return true;
  } catch {
    return false;
  }
}

describe("decision 0039: secret rotation with an overlap", () => {
  it("decision 0039: the new secret signs at once, the old one until the overlap ends, then not", async () => {
    const b = await makeBuyer();
    expect(await signs(b.apiKey, b.apiSecret)).toBe(true);
    const r = await rotateApiSecret({ apiKey: b.apiKey, overlapHours: 2, actor: CLI_ACTOR });
    expect(await signs(b.apiKey, r.apiSecret)).toBe(true);
    expect(await signs(b.apiKey, b.apiSecret)).toBe(true);
    await db().apiCredential.update({ where: { id: b.id }, data: { previousSecretUntil: new Date(Date.now() - 1) } });
    await expect.poll(() => signs(b.apiKey, b.apiSecret), { timeout: 5000, interval: 200 }).toBe(false);
    expect(await signs(b.apiKey, r.apiSecret)).toBe(true);
  });

  it("decision 0039: overlap 0 stops the old secret at once; another buyer's key is not found; 73 hours is refused", async () => {
    const [a, b] = [await makeBuyer(), await makeBuyer()];
    expect(await signs(b.apiKey, b.apiSecret)).toBe(true);
    const r = await rotateApiSecret({ apiKey: b.apiKey, overlapHours: 0, actor: CLI_ACTOR });
    expect(await signs(b.apiKey, r.apiSecret)).toBe(true);
    await expect.poll(() => signs(b.apiKey, b.apiSecret), { timeout: 5000, interval: 200 }).toBe(false);
    await expect(rotateApiSecret({ apiKey: b.apiKey, userId: a.user.id, overlapHours: 1, actor: CLI_ACTOR })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(rotateApiSecret({ apiKey: b.apiKey, overlapHours: 73, actor: CLI_ACTOR })).rejects.toMatchObject({ code: "bad_request" });
  });
});
