import { ENDPOINTS, pathOf } from "../protocol/endpoints";
import { PROFILE_PREFIXES } from "../protocol/profiles";

// Issue 35.1: the Integration page's examples, filled in with this site's
// base URL, the buyer's key id (never its secret) and a SKU the buyer can
// order, so a copy-and-paste places a real order. Paths and methods come
// from the endpoint table (Profile P's primary prefix); the signature is
// section 5's: METHOD, path, timestamp and the body's MD5, one per line.

export interface ExampleInput {
  baseUrl: string;
  apiKey: string;
  /** A SKU of the buyer's price list; null when the list is empty. */
  skuId: number | null;
}

const PREFIX = PROFILE_PREFIXES.P[0];
/** Shown when the price list has nothing to order: the buyer puts a SKU id in. */
const SKU_PLACEHOLDER = "<sku_id from the price list>";

/** bash with curl and openssl: sign and send POST /orders, then read the order back. */
export function curlOrderExample({ baseUrl, apiKey, skuId }: ExampleInput): string {
  const create = PREFIX + pathOf("createOrder");
  // The id is the shell's: pathOf would percent-encode the "$".
  const read = PREFIX + ENDPOINTS.getOrder.path.replace("{id}", "$ORDER_ID");
  const sign = (method: string, path: string, md5: string) =>
    `$(printf '%s\\n%s\\n%s\\n%s' ${method} "${path}" "$TS" "${md5}" | openssl dgst -sha256 -hmac "$API_SECRET" | sed 's/^.* //')`;
  return [
    `# API_SECRET holds your key's secret (shown once when the key was made): export API_SECRET=...`,
    `KEY=${apiKey}`,
    `BASE=${baseUrl}`,
    `BODY='{"downstream_order_no":"MY-'"$(date +%s)"'","sku_id":${skuId ?? SKU_PLACEHOLDER},"quantity":1}'`,
    `TS=$(date +%s)`,
    `MD5=$(printf '%s' "$BODY" | openssl dgst -md5 | sed 's/^.* //')`,
    `SIG=${sign(ENDPOINTS.createOrder.method, create, "$MD5")}`,
    `ANSWER=$(curl -s -X ${ENDPOINTS.createOrder.method} "$BASE${create}" -H "Content-Type: application/json" \\`,
    `  -H "Svc-Api-Key: $KEY" -H "Svc-Timestamp: $TS" -H "Svc-Signature: $SIG" --data "$BODY")`,
    `echo "$ANSWER"`,
    `# Read it back by its order_id (Profile P: a new timestamp for a new request).`,
    `ORDER_ID=$(printf '%s' "$ANSWER" | sed -n 's/.*"order_id":\\([0-9]*\\).*/\\1/p')`,
    `sleep 1; TS=$(date +%s)`,
    `SIG=${sign(ENDPOINTS.getOrder.method, read, "d41d8cd98f00b204e9800998ecf8427e")}`,
    `curl -s "$BASE${read}" -H "Svc-Api-Key: $KEY" -H "Svc-Timestamp: $TS" -H "Svc-Signature: $SIG"`,
  ].join("\n");
}

/** Node 20+ with the downloadable typed client next to the script (supplier-client.mjs). */
export function clientOrderExample({ baseUrl, apiKey, skuId }: ExampleInput): string {
  return [
    `// order.mjs: run with API_SECRET=... node order.mjs, supplier-client.mjs in the same folder`,
    `import { createSupplierClient, waitForOrder } from "./supplier-client.mjs";`,
    ``,
    `const client = createSupplierClient({`,
    `  baseUrl: ${JSON.stringify(baseUrl)},`,
    `  apiKey: ${JSON.stringify(apiKey)},`,
    `  apiSecret: process.env.API_SECRET,`,
    `  profile: "P",`,
    `});`,
    `const created = await client.createOrder({ downstream_order_no: \`MY-\${Date.now()}\`, sku_id: ${skuId ?? 0}, quantity: 1 });`,
    `console.log(created.order_id, created.order_no, created.status);`,
    `const order = await waitForOrder(client, created.order_id);`,
    `console.log(order.status, order.fulfillment?.delivery_data ?? []);`,
  ].join("\n");
}
