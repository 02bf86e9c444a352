import { Children, type ReactNode } from "react";
import type { Translate } from "@/lib/i18n/messages";
import { getI18n } from "@/lib/i18n/server";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";

// Small pieces every portal page uses.

/** The labels a PortalForm needs, in the page's language. */
export const formLabels = (t: Translate) => ({
  copy: t("portal.common.copy"),
  copied: t("portal.common.copied"),
  busy: t("portal.common.busy"),
  error: t("portal.common.error"),
  fix: t("portal.common.fix"),
});

/**
 * A table that scrolls sideways on a phone; focusable so a keyboard can scroll it (axe: scrollable-region-focusable).
 * With no rows it says `none` across all its columns.
 */
export function Table({
  label,
  head,
  children,
  testId,
  none,
}: {
  label: string;
  head: ReactNode[];
  children: ReactNode;
  testId?: string;
  none: string;
}) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label} data-testid={testId}>
      <table>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={i} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Children.count(children) === 0 ? (
            <tr>
              <td colSpan={head.length}>{none}</td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Previous / next links keeping the other query parameters. */
export function Pager({
  page,
  pages,
  params,
  t,
}: {
  page: number;
  pages: number;
  params: Record<string, string | undefined>;
  t: Translate;
}) {
  const href = (p: number) => "?" + keptQuery({ ...params, page: String(p) });
  return (
    <nav className="pager" aria-label={t("portal.common.pageOf", { page, pages })}>
      {page > 1 ? <a href={href(page - 1)}>{t("portal.common.previous")}</a> : null}
      <span>{t("portal.common.pageOf", { page, pages: Math.max(1, pages) })}</span>
      {page < pages ? <a href={href(page + 1)}>{t("portal.common.next")}</a> : null}
    </nav>
  );
}

/** The filter form above a list: its fields, then one Filter button; a GET, so the filter is in the address. */
export function FilterForm({ t, children }: { t: Translate; children: ReactNode }) {
  return (
    <form className="table-tools" method="get" role="search">
      {children}
      <div>
        <button type="submit" className="btn">
          {t("portal.prices.filter")}
        </button>
      </div>
    </form>
  );
}

/** The From and To date fields of a filter form. */
export function DateRangeFields({ t, from, to }: { t: Translate; from?: string; to?: string }) {
  return (
    <>
      <div className="field">
        <label htmlFor="from">{t("portal.orders.from")}</label>
        <input id="from" name="from" type="date" defaultValue={from ?? ""} />
      </div>
      <div className="field">
        <label htmlFor="to">{t("portal.orders.to")}</label>
        <input id="to" name="to" type="date" defaultValue={to ?? ""} />
      </div>
    </>
  );
}

/** A query string of the parameters that have a value (the filters a page keeps in its links). */
export const keptQuery = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1]))).toString();

/** How a portal list page starts: the signed-in buyer first (a signed-out visitor is sent to sign in), then its language and query. */
export async function openPortalListPage(searchParams: Query) {
  const buyer = await requireBuyer();
  return { buyer, ...(await getI18n()), params: await searchParams };
}

export const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
export type Query = Promise<Record<string, string | string[] | undefined>>;
