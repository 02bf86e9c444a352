import { getPriceList, stockBand } from "@/lib/portal/price-list";
import { csvResponse, portalExport } from "@/lib/portal-auth/portal-route";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

/** GET /portal/prices.csv?q=&category=: the price list as filtered on the page, both languages' titles. */
export const GET = portalExport(async (req, { buyer }) => {
  const url = new URL(req.url);
  const category = Number(url.searchParams.get("category"));
  const { rows } = await getPriceList({
    userId: buyer.userId,
    q: url.searchParams.get("q")?.slice(0, 100) ?? undefined,
    categoryId: Number.isSafeInteger(category) && category > 0 ? category : undefined,
  });
  return csvResponse("price-list.csv", [
    [
      "product_id",
      "title_en",
      "title_zh",
      "sku_id",
      "sku_code",
      "price",
      "stock_status",
      "stock_quantity",
      "delivery_format",
      "category_id",
    ],
    ...rows.map((r) => [
      r.productId,
      r.productTitle.en,
      r.productTitle["zh-CN"],
      r.skuId,
      r.skuCode,
      formatAmount(r.priceCents),
      stockBand(r.stock),
      r.stock ?? -1,
      r.deliveryFormat,
      r.categoryId,
    ]),
  ]);
});
