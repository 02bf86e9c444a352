import { db } from "../db/client";
import { appError } from "../errors";
import { log } from "../log";
import { StockEventSchema, stockOfEvent } from "./source-stock-page";
import { storeUpstreamStock } from "./store-upstream-stock";

/**
 * Issue 26.1: a signed `catalog.updated` event of a Profile U upstream
 * (verified by receive-upstream-callback.ts, our one endpoint for what an
 * upstream sends) sets the last known stock of the sources pointing at the
 * SKUs it names. Checked whole before anything is written (figures -1..2^31-1
 * whole numbers, each SKU once, at most 500 products): one bad figure is 400
 * and nothing changes. A product is applied only when its `updated_at` is
 * newer than the one that last set the source's stock (`lastStockAt`), as the
 * protocol asks of every receiver: a replayed, resent or late event changes
 * nothing. A product listed without a SKU it had, or removed (a tombstone,
 * `skus: []`), leaves that SKU's sources at 0 (decision 0049). Our imported
 * copies of the product's SKUs take the same figures, under the same rule
 * (`UpstreamProductStamp`).
 * Returns the number of sources written.
 */
export async function applyUpstreamCatalogEvent(connectionId: number, body: unknown): Promise<number> {
  const parsed = StockEventSchema.safeParse(body);
  if (!parsed.success) throw appError("bad_request", "catalogue event refused: a product or SKU is malformed; nothing was changed");
  const stock = stockOfEvent(parsed.data);
  const updated = await db().$transaction((tx) => storeUpstreamStock(tx, connectionId, stock, { ordered: true, copies: "all" }));
  log.info({ component: "upstream", connectionId, skus: stock.skuIds.length, sources: updated }, "upstream catalogue event applied");
  return updated;
}
