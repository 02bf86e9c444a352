import { pathOf } from "../protocol/endpoints";
import { startStubUpstream, type StubAnswer, type StubUpstream } from "./stub-upstream";

// A stub supplier that serves a catalogue (ping, one category, the products
// in `items`) and lets a test override any answer through `route`. Used by
// the issue 8.3 tests and the console e2e test.

export const lang = (en: string) => ({ "zh-CN": en, en });

/** A well-formed upstream product (Profile P catalogue shape) with one SKU; `over` replaces fields. */
export const upstreamProduct = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  slug: `p${id}`,
  title: lang(`Product ${id}`),
  description: lang(""),
  content: lang(""),
  price_amount: "10.00",
  is_active: true,
  category_id: 1,
  delivery_format: "text",
  delivery_delimiter: "----",
  logo_url: "",
  images: [],
  skus: [{ id: id * 10, sku_code: `S${id}`, spec_values: {}, price_amount: "10.00", stock_quantity: -1, is_active: true }],
  ...over,
});

export interface StubSupplier {
  stub: StubUpstream;
  items: unknown[];
  /** Answers this request instead of the catalogue when it returns something. */
  route: (req: { method: string; path: string; body: string }) => StubAnswer | undefined;
}

export async function startStubSupplier(unknownPathMessage = "no route"): Promise<StubSupplier> {
  const stub = await startStubUpstream();
  const s: StubSupplier = { stub, items: [], route: () => undefined };
  stub.answer = (req) => {
    const special = s.route(req);
    if (special) return special;
    if (req.path.startsWith(pathOf("ping"))) return { body: { ok: true, balance: "100.00" } };
    if (req.path.startsWith(pathOf("listCategories")))
      return { body: { ok: true, categories: [{ id: 1, parent_id: 0, slug: "games", name: lang("Games"), sort_order: 0 }] } };
    if (req.path.startsWith(pathOf("listProducts")))
      return { body: { ok: true, items: s.items, total: s.items.length, page: 1, page_size: 100 } };
    return { status: 404, body: { ok: false, error_code: "not_found", error_message: unknownPathMessage } };
  };
  return s;
}
