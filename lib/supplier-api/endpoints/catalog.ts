import { ENDPOINTS } from "../../protocol/endpoints";
import { catalogView, categoriesBody, productDetail, productPage, productSyncPage } from "../../catalog-read/catalog-cache";
import { pageBody } from "../../catalog-read/page-cache";
import { defineEndpoint, parseIdParam } from "../define-endpoint";
import { jsonText } from "../responses";
import { appError } from "../../errors";
import { after } from "../../maybe";

// Issue 40.4: the handlers answer at once from a fresh catalogue (no `async`: see lib/maybe.ts).

/** Section 4.2: `{ ok, categories }`; parent_id 0 is top level. */
export const listCategoriesEndpoint = defineEndpoint({
  ...ENDPOINTS.listCategories,
  handler: (ctx) => after(catalogView(ctx.profile), (view) => jsonText(categoriesBody(view))),
});

/** Section 4.3, D10, D12, D13, D15; `updated_after` and level prices are extensions (issue 12.1, 12.4). */
export const listProductsEndpoint = defineEndpoint({
  ...ENDPOINTS.listProducts,
  handler: (ctx) =>
    after(catalogView(ctx.profile, ctx.credential), (view) => {
      const { page, page_size, include_inactive, updated_after } = ctx.query;
      if (updated_after !== undefined) return jsonText(productSyncPage(view, updated_after, page, page_size, include_inactive));
      const cached = productPage(view, page, page_size, include_inactive);
      const answer = () => jsonText(() => pageBody(cached), cached.gzip);
      // A page just built: its gzip is a millisecond away (page-cache.ts). Only a client that takes gzip waits for it:
      // one that reads uncompressed waited for nothing it used, behind the thread pool's queue (issue 28.2).
      return !cached.gzip && ctx.prefersGzip && cached.gzipping ? cached.gzipping.then(answer) : answer();
    }),
});

/** Section 4.4, D11: inactive products are returned with is_active false; unknown ones are 404. */
export const getProductEndpoint = defineEndpoint({
  ...ENDPOINTS.getProduct,
  handler: (ctx) => {
    const id = parseIdParam(ctx.params.id);
    return after(catalogView(ctx.profile, ctx.credential), (view) => {
      const body = productDetail(view, id);
      if (!body) {
        throw ctx.profile === "P"
          ? appError("product_not_found", "product not found")
          : appError("product_unavailable", "product not found", { status: 404 }); // D11: 404 on detail in U
      }
      return jsonText(body);
    });
  },
});
