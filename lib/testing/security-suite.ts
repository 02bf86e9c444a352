import crypto from "node:crypto";
import { expect, it } from "vitest";
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP, MAX_BODY_BYTES } from "../protocol/headers";
import { ALL_PREFIXES } from "../protocol/profiles";
import { servedIn, type EndpointSpec } from "./endpoint-samples";
import { signedRawRequest, type Creds, type RawResponse, type SignedRawRequest } from "./test-client";
import type { AnyAnswer } from "./wire-types";
import { anyString } from "./matchers";

// THE SHARED SECURITY SUITE (architecture habit 5): the same table of attacks
// against every endpoint under every prefix. Each attack must fail with the
// D1 body; all authentication failures are the same 401 (D7).

export interface SecurityFixtures {
  baseUrl: string;
  valid: Creds;
  /** An API key whose isActive is false (D9). */
  disabledKey: Creds;
  /** An active key of a disabled user (D9). */
  disabledUser: Creds;
}

interface Attack {
  name: string;
  expectStatus: number;
  expectCode: string;
  /** Which credentials to use and how to bend the request. */
  creds?: (f: SecurityFixtures) => Creds;
  bend: (r: SignedRawRequest, ctx: { prefix: string; endpoint: EndpointSpec }) => SignedRawRequest;
}

const now = () => Math.floor(Date.now() / 1000);

/** The other prefix of the same profile, and a prefix of the other profile. */
function otherPrefixes(prefix: string): string[] {
  return ALL_PREFIXES.map((p) => p.prefix).filter((p) => p !== prefix);
}

export const ATTACKS: readonly Attack[] = [
  {
    name: "missing API key header",
    expectStatus: 401,
    expectCode: "unauthorized",
    bend: (r) => ({ ...r, headers: { [HEADER_API_KEY]: undefined } }),
  },
  {
    name: "missing timestamp header",
    expectStatus: 401,
    expectCode: "unauthorized",
    bend: (r) => ({ ...r, headers: { [HEADER_TIMESTAMP]: undefined } }),
  },
  {
    name: "missing signature header",
    expectStatus: 401,
    expectCode: "unauthorized",
    bend: (r) => ({ ...r, headers: { [HEADER_SIGNATURE]: undefined } }),
  },
  {
    name: "unknown API key",
    expectStatus: 401,
    expectCode: "unauthorized",
    creds: (f) => ({ apiKey: "sk_unknown_" + crypto.randomBytes(6).toString("hex"), apiSecret: f.valid.apiSecret }),
    bend: (r) => r,
  },
  { name: "disabled API key", expectStatus: 401, expectCode: "unauthorized", creds: (f) => f.disabledKey, bend: (r) => r },
  { name: "key of a disabled user", expectStatus: 401, expectCode: "unauthorized", creds: (f) => f.disabledUser, bend: (r) => r },
  {
    name: "wrong secret",
    expectStatus: 401,
    expectCode: "unauthorized",
    creds: (f) => ({ ...f.valid, apiSecret: f.valid.apiSecret + "x" }),
    bend: (r) => r,
  },
  { name: "stale timestamp (-61 s)", expectStatus: 401, expectCode: "unauthorized", bend: (r) => ({ ...r, timestamp: now() - 61 }) },
  // +70, not +61: a request that takes a second to arrive on a loaded machine
  // would bring +61 back inside the window and the check would test nothing.
  { name: "future timestamp (+70 s)", expectStatus: 401, expectCode: "unauthorized", bend: (r) => ({ ...r, timestamp: now() + 70 }) },
  { name: "non-integer timestamp", expectStatus: 401, expectCode: "unauthorized", bend: (r) => ({ ...r, timestamp: `${now()}.0` }) },
  {
    name: "upper-case hex signature (D6)",
    expectStatus: 401,
    expectCode: "unauthorized",
    bend: (r) => ({ ...r, mapSignature: (s) => s.toUpperCase() }),
  },
  {
    name: "tampered body (signed one body, sent another)",
    expectStatus: 401,
    expectCode: "unauthorized",
    bend: (r) => ({ ...r, signBody: (r.body?.toString() ?? "") + " " }),
  },
  ...[0, 1, 2].map((i): Attack => ({
    name: `signature made for the path of another prefix (#${i + 1})`,
    expectStatus: 401,
    expectCode: "unauthorized",
    bend: (r, { prefix, endpoint }) => ({ ...r, signPath: otherPrefixes(prefix)[i] + endpoint.path }),
  })),
  {
    name: "oversize body (1 MiB + 1, Content-Length)",
    expectStatus: 413,
    expectCode: "request_too_large",
    bend: (r) => ({ ...r, body: Buffer.alloc(MAX_BODY_BYTES + 1, 0x20) }),
  },
];

function expectD1(res: RawResponse, status: number, code: string, label: string) {
  expect(res.status, `${label}: status (body ${res.text.slice(0, 200)})`).toBe(status);
  expect(res.json(), label).toEqual({ ok: false, error_code: code, error_message: anyString() });
  expect(res.headers["x-request-id"], `${label}: X-Request-Id`).toMatch(/^[0-9a-f-]{36}$/);
}

/**
 * Registers the suite's tests (call inside a describe). `fixtures()` is read
 * when the tests run, so it can come from a beforeAll.
 */
export function defineSecuritySuite(endpoints: readonly EndpointSpec[], fixtures: () => SecurityFixtures) {
  for (const { prefix, profile } of ALL_PREFIXES) {
    for (const endpoint of endpoints.filter((e) => servedIn(e, profile))) {
      const base = (u: string): SignedRawRequest => {
        const body = endpoint.body(u);
        return { method: endpoint.method, path: prefix + endpoint.path, body: body === "" ? undefined : body };
      };

      it(`${endpoint.method} ${prefix}${endpoint.path}: a correctly signed request passes authentication`, async () => {
        const f = fixtures();
        const res = await signedRawRequest(f.baseUrl, f.valid, base(crypto.randomUUID()));
        const body = res.json<AnyAnswer>();
        const label = `${res.status} ${res.text.slice(0, 200)}`;
        // Past authentication: a success, or a business error of this endpoint
        // (unknown product/order/SKU), never 401/413 or the router's not_found.
        expect([401, 405, 413], label).not.toContain(res.status);
        expect(body.error_code, label).not.toBe("not_found");
        expect(body.ok === true || typeof body.error_code === "string", label).toBe(true);
      });

      it(`${endpoint.method} ${prefix}${endpoint.path}: every attack fails with the D1 body`, async () => {
        const f = fixtures();
        for (const attack of ATTACKS) {
          const creds = attack.creds ? attack.creds(f) : f.valid;
          const res = await signedRawRequest(f.baseUrl, creds, attack.bend(base(crypto.randomUUID()), { prefix, endpoint }));
          expectD1(res, attack.expectStatus, attack.expectCode, attack.name);
        }
      });
    }
  }
}
