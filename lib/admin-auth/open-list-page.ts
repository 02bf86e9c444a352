import { one, parsePaging, type SearchParams } from "../admin-views/paging";
import { getI18n } from "../i18n/server";
import { requireAdmin } from "./require-admin";

// Issue 34.5: how every console list page (orders, buyers, products, API keys,
// audit log) starts, in one place.

/** A list page's props: its query string (search, filters, ?page, ?size, ?sort, ?dir). */
export interface ListPageProps {
  searchParams: Promise<SearchParams>;
}

/**
 * Checks the session first (a signed-out visitor is redirected and nothing is
 * read), then gives the page its language, its query, the page of rows asked
 * for (unknown sorts fall back to `defaultSort`) and the search text `q`.
 */
export async function openListPage<S extends string>(searchParams: Promise<SearchParams>, sorts: readonly S[], defaultSort: S) {
  await requireAdmin();
  const i18n = await getI18n();
  const params = await searchParams;
  return { ...i18n, params, paging: parsePaging(params, sorts, defaultSort), q: one(params, "q") };
}
