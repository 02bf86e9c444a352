import vectors from "../test-vectors.json";
import { MAX_BODY_BYTES, REPLAY_WINDOW_SECONDS, TIMESTAMP_WINDOW_SECONDS } from "../headers";
import { PROFILE_PREFIXES } from "../profiles";

// The key sections of docs/protocol.md (signing, idempotency, polling,
// callbacks) as Markdown for the document's description, so the reference
// page at /docs carries them without loading anything from elsewhere.
// The worked example is the published test vector, not a copy of its numbers.

const v = vectors.vectors.find((x) => x.method === "POST") ?? vectors.vectors[0];

export const SIGNING_GUIDE = `Every request carries three headers (section 5, D6):
\`Svc-Api-Key\`, \`Svc-Timestamp\` (Unix seconds, accepted within ±${TIMESTAMP_WINDOW_SECONDS} s)
and \`Svc-Signature\`:

    body_md5    = lowercase hex MD5 of the exact body bytes ("" for GET)
    sign_string = METHOD + "\\n" + PATH + "\\n" + TIMESTAMP + "\\n" + body_md5
    signature   = lowercase hex HMAC-SHA256(API secret, sign_string)

PATH is the path you request (\`/v1/...\` and \`/api/v1/...\` sign differently), without host or query string.
Any failure is 401 \`unauthorized\`, with no hint which part failed (D7). Upper-case hex is rejected.

Worked example (test vector "${v.name}"):

    secret      ${v.secret}
    sign_string ${JSON.stringify(v.sign_string)}
    body        ${v.body}
    signature   ${v.signature}`;

export const GUIDE_MARKDOWN = `The supplier interface of this site, for downstream shops: two profiles
(U: \`${PROFILE_PREFIXES.U[0]}\`, \`${PROFILE_PREFIXES.U[1]}\`; P: \`${PROFILE_PREFIXES.P[0]}\`, \`${PROFILE_PREFIXES.P[1]}\`), the seven endpoints of the specification each,
plus the extensions in the guide ("Extensions").
Served by this site (issue 35.1):
[the full guide](/docs/files/protocol.md), [the decisions D1–D33](/docs/files/decisions.md),
[the typed client](/docs/files/supplier-client.mjs) (one ES module for Node 20+: \`import { createSupplierClient } from "./supplier-client.mjs"\`),
[the conformance kit](/docs/files/supplier-conformance.mjs)
(\`node supplier-conformance.mjs --base-url URL --api-key K --api-secret-file F --profile U|P\`).

## Signing
${SIGNING_GUIDE}

## Errors
Every error is \`{"ok": false, "error_code": "…", "error_message": "…"}\` (D1) with the status listed per operation;
every response carries \`X-Request-Id\`. An unknown path under a prefix is 404 \`not_found\`; a method an endpoint
does not support is 405 \`method_not_allowed\`. Bodies above ${MAX_BODY_BYTES} bytes are 413 \`request_too_large\` (D30);
over the rate limit: 429 \`rate_limited\` with \`Retry-After\` (D31). Amounts are strings with two decimals (D3).

## Replay protection (Profile P)
A signed request (key, timestamp, signature) seen again within ${REPLAY_WINDOW_SECONDS} s is 409 \`replay_detected\` (D8);
give every request a fresh timestamp. A replayed order create that matches its stored order exactly is answered
with that order.

## Idempotency
An order is identified by (API key, \`downstream_order_no\`) (D18). The same number with identical parameters
returns the original order (no second debit); any different parameter is 409 \`idempotency_conflict\`.
**After a timeout, a connection error, a 5xx or a 429 repeat the create with the same number and the same body**
(after \`Retry-After\` on 429); never invent a new number.

## Polling (Profile P)
P sends no callbacks: read \`GET {prefix}/orders/{id}\` with bounded back-off (1 s, 2 s, 4 s … then every 30–60 s)
until \`delivered\` or \`failed\`. Upstream purchases may stay \`processing\` for up to 30 minutes (D25) and then until
an operator reviews them; never buy again while an order is \`processing\`.

## Callbacks (Profile U)
With \`callback_url\`, each change to \`delivered\` or \`failed\` is POSTed to that URL (D26; see the webhook
\`orderUpdated\`), signed like a request with your key and secret over the callback URL's path (D27).
Verify the signature and the timestamp before acting; answer 2xx within 10 s; redirects are not followed; retries
for about 16 hours (D28). Callbacks may arrive more than once: the order endpoint is the truth.

## Catalogue events (Profile U extension)
\`PUT {U prefix}/catalog-webhook\` registers one URL per key (D29 rules; \`GET\` reads, \`DELETE\` removes; 404 in P).
Changed products (price, active flag, SKUs, stock status) are POSTed as \`catalog.updated\` (webhook
\`catalogUpdated\`), signed like order callbacks: at most one event per key every 10 s, at most 500 products each.
Apply a product only when its \`updated_at\` is newer than the one you hold.

## After-sales (extension, both profiles)
\`POST {prefix}/orders/{id}/after-sales\` with \`request_id\`, \`line\` (0-based index in \`delivery_data\`) and \`reason\`
claims one delivered line as defective (idempotent on \`request_id\`); \`GET\` on the same path lists the order's claims
(\`open\`, \`replaced\`, \`refunded\`, \`rejected\`). Outside the product's window, on an order refunded in full, or for a
line already claimed: 409 \`after_sales_closed\` / \`line_already_claimed\`. A refund shows as \`refunded_amount\` on the
order; a line is replaced at most once within the window unless the supplier allows more (then it is refunded).`;
