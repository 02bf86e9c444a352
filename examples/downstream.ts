// A whole purchase as a downstream shop makes it (issue 11.4):
//
//   SUPPLIER_BASE_URL=http://127.0.0.1:3000 SUPPLIER_API_KEY=… SUPPLIER_API_SECRET=… \
//   SUPPLIER_PROFILE=P SUPPLIER_SKU_ID=12 npx tsx examples/downstream.ts
//
// ping → catalogue → order (retried safely with the same number) → wait until
// delivered or failed → one delivered line per stdout line. Progress goes to
// stderr so stdout carries only the delivered lines. Exit 1 when the order failed.
import crypto from "node:crypto";
import { createSupplierClient, SupplierApiError, waitForOrder } from "../lib/protocol/client";
import { isInt4IdText } from "../lib/protocol/ids";

const NAMES = ["SUPPLIER_BASE_URL", "SUPPLIER_API_KEY", "SUPPLIER_API_SECRET", "SUPPLIER_PROFILE", "SUPPLIER_SKU_ID"] as const;
const missing = NAMES.filter((n) => !process.env[n]);
if (missing.length) {
  process.stderr.write(`set ${missing.join(", ")} (see the README, section Integrators)\n`);
  process.exit(2);
}
const env = (name: (typeof NAMES)[number]) => process.env[name]!;

const profile = env("SUPPLIER_PROFILE");
if (profile !== "U" && profile !== "P") {
  process.stderr.write("SUPPLIER_PROFILE must be U or P\n");
  process.exit(2);
}
// Checked here, not by the supplier: a typo is a usage error, and ping and the catalogue would run first.
if (!isInt4IdText(env("SUPPLIER_SKU_ID"))) {
  process.stderr.write("SUPPLIER_SKU_ID must be a SKU id: a positive whole number, as the catalogue lists it\n");
  process.exit(2);
}
const skuId = Number(env("SUPPLIER_SKU_ID"));
const client = createSupplierClient({
  baseUrl: env("SUPPLIER_BASE_URL"),
  apiKey: env("SUPPLIER_API_KEY"),
  apiSecret: env("SUPPLIER_API_SECRET"),
  profile,
});
const say = (line: string) => process.stderr.write(line + "\n");

try {
  const account = await client.ping();
  say(`connected to ${account.site_name} (protocol ${account.protocol_version}), balance ${account.balance} ${account.currency}`);

  const { categories } = await client.listCategories();
  const page = await client.listProducts({ page_size: 100 });
  say(`${categories.length} categories, ${page.total} products`);
  const product = page.items.find((p) => p.skus.some((s) => s.id === skuId));
  say(
    product
      ? `buying ${product.title.en || product.title["zh-CN"]} (SKU ${skuId})`
      : `SKU ${skuId} is not on the first page; buying it anyway`,
  );

  // One number per purchase, made once and kept: a retry reuses it (D18).
  const downstreamOrderNo = `EX-${Date.now()}-${crypto.randomBytes(3).toString("hex")}`;
  const created = await client.createOrder({ downstream_order_no: downstreamOrderNo, sku_id: skuId, quantity: 1 });
  say(`order ${created.order_no} (${created.order_id}): ${created.status}, ${created.amount} ${created.currency}`);

  const order = created.status === "processing" ? await waitForOrder(client, created.order_id) : created;
  if (order.status !== "delivered") {
    say(`order ${order.order_no} ${order.status}${"error_message" in order && order.error_message ? `: ${order.error_message}` : ""}`);
    process.exit(1);
  }
  for (const line of order.fulfillment?.delivery_data ?? []) process.stdout.write(line + "\n");
} catch (err) {
  say(
    err instanceof SupplierApiError
      ? `supplier answered ${err.message} (request ${err.requestId})` // the message starts with status and code
      : String(err),
  );
  process.exit(1);
}
