import fc from "fast-check";
import { HTTP_METHODS } from "../supplier-api/router";
import { SUPPLIER_ENDPOINTS } from "./endpoint-samples";
import { ALL_PREFIXES } from "../protocol/profiles";

// Issue 8.2: generated hostile requests for the property-based fuzz test of the
// supplier API (app/api/v1/[profile]/fuzz.test.ts). Every string arbitrary
// draws from all UTF-16 code units, so NUL and lone surrogates come up often.

export interface FuzzRequest {
  method: string;
  /** Path and query as sent (percent-encoded). */
  path: string;
  body: Buffer;
  headers: Record<string, string>;
  /** How to authenticate: a correct signature, a wrong one, or no auth headers. */
  auth: "signed" | "bad-signature" | "none";
  /** Seconds added to now for Svc-Timestamp. */
  clockSkew: number;
}

/** Any UTF-16 code unit: NUL, controls, lone surrogates and all. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const hostileText = fc.oneof(
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom("\u0000", "a\u0000b", "\uD800", "\uDFFF", "x\uDBFF", "\u{1F600}", "", " ", "null", "-1", "1e309", "0x10"),
);

/** Percent-encodes the UTF-8 bytes (lone surrogates become U+FFFD), never throwing as encodeURIComponent would. */
export function pct(s: string): string {
  return [...Buffer.from(s, "utf8")]
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, "0")}`))
    .join("");
}

const segment = fc.oneof(
  hostileText.filter((s) => s !== "." && s !== "..").map(pct),
  fc.constantFrom("%00", "%ff", "%zz", "%", "%2F", "%5C", "%c0%ae", "orders", "products", "cancel", "ping", "1", "0", "-1", "99999999999"),
);

const query = fc.oneof(
  fc.constant(""),
  fc.dictionary(hostileText, hostileText, { maxKeys: 4 }).map(
    (d) =>
      `?${Object.entries(d)
        .map(([k, v]) => `${pct(k)}=${pct(v)}`)
        .join("&")}`,
  ),
  fc.constantFrom("?page=%00", "?page_size=%ff&include_inactive=%00", "?%zz=%", "?page=1&page=2", "?page=99999999999999"),
);

const id = (known: number[]) => fc.oneof(fc.constantFrom(...known.map(String)), fc.integer().map(String), segment);

const anyMethod = fc.constantFrom(...HTTP_METHODS);

/** Method and path after the prefix: mostly an endpoint with its own method (so validation is reached), sometimes anything. */
const target = (known: number[]) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(fc.constantFrom(...SUPPLIER_ENDPOINTS), id(known), fc.integer({ min: 0, max: 7 }), anyMethod)
        .map(([e, i, roll, other]) => ({ method: roll === 0 ? other : e.method, path: e.path.replace("999999", i) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(anyMethod, fc.array(segment, { maxLength: 4 }))
        .map(([method, segs]) => ({ method, path: segs.map((x) => `/${x}`).join("") })),
    },
  );

/** A create-order body: right field names with hostile values, or any JSON value. */
const orderBody = (known: number[]) =>
  fc.record(
    {
      downstream_order_no: hostileText,
      sku_id: fc.oneof(fc.constantFrom(...known), fc.integer(), hostileText, fc.double()),
      quantity: fc.oneof(fc.integer({ min: -2, max: 3 }), fc.integer(), fc.double(), hostileText),
      trace_id: fc.oneof(hostileText, fc.constant(null)),
      callback_url: fc.oneof(
        hostileText,
        hostileText.map((t) => `https://93.184.216.34/${t}`),
        fc.constant(null),
      ),
      manual_form_data: fc.oneof(
        fc.dictionary(hostileText, fc.oneof(hostileText, fc.integer(), fc.array(hostileText, { maxLength: 2 })), { maxKeys: 3 }),
        hostileText,
      ),
    },
    { requiredKeys: [] },
  );

const body = (known: number[]) =>
  fc.oneof(
    { weight: 4, arbitrary: orderBody(known).map((b) => Buffer.from(JSON.stringify(b), "utf8")) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? "", "utf8")) },
    { weight: 1, arbitrary: hostileText.map((t) => Buffer.from(t, "utf8")) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "",
          '{"__proto__":{"quantity":1},"constructor":{}}',
          '{"a":1,"a":2}',
          "[",
          '"\\u0000"',
          '{"downstream_order_no":"\\ud800"}',
        )
        .map((t) => Buffer.from(t, "utf8")),
    },
  );

// Header names the HTTP layer itself owns (framing, Expect) are left to Node's parser tests.
const RESERVED = new Set(["content-length", "transfer-encoding", "host", "connection", "expect", "upgrade", "te", "trailer", "keep-alive"]);
const headerValue = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 40,
});
const headers = fc.dictionary(
  fc
    .oneof(
      fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
      fc.constantFrom(
        "x-forwarded-for",
        "x-client-address",
        "content-type",
        "accept-language",
        "cookie",
        "x-real-ip",
        "x-middleware-subrequest",
        "x-http-method-override",
      ),
    )
    .filter((n) => !RESERVED.has(n) && !n.startsWith("svc-")),
  headerValue,
  { maxKeys: 3 },
);

export const fuzzRequest = (known: number[]): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      target: target(known),
      prefix: fc.constantFrom(...ALL_PREFIXES),
      query,
      body: body(known),
      headers,
      auth: fc.constantFrom<FuzzRequest["auth"]>("signed", "signed", "signed", "signed", "signed", "bad-signature", "none"),
      clockSkew: fc.integer({ min: -55, max: 55 }),
    })
    .map(({ target: t, prefix, query: q, ...rest }) => ({ ...rest, method: t.method, path: prefix.prefix + t.path + q }));
