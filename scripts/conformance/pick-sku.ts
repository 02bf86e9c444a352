// CI helper (issue 11): prints the id of an active SKU of an active `auto`
// product with at least MIN_STOCK card keys, read over the supplier API with
// the downstream client (SUPPLIER_BASE_URL, SUPPLIER_API_KEY, SUPPLIER_API_SECRET).
import { createSupplierClient } from "../../lib/protocol/client";

const MIN_STOCK = Number(process.env.MIN_STOCK ?? 4);
const client = createSupplierClient({
  baseUrl: process.env.SUPPLIER_BASE_URL ?? "",
  apiKey: process.env.SUPPLIER_API_KEY ?? "",
  apiSecret: process.env.SUPPLIER_API_SECRET ?? "",
  profile: "P",
});
const page = await client.listProducts({ page_size: 100 });
const sku = page.items
  .filter((p) => p.fulfillment_type === "auto" && p.is_active)
  .flatMap((p) => p.skus)
  .find((s) => s.is_active && s.stock_status === "available" && s.stock_quantity >= MIN_STOCK);
if (!sku) {
  process.stderr.write(`no auto SKU with at least ${MIN_STOCK} card keys\n`);
  process.exit(1);
}
process.stdout.write(`${sku.id}\n`);
