import type { ReactNode } from "react";
import type { Translate } from "@/lib/i18n/messages";

// Small pieces every portal page uses.

/** The labels a PortalForm needs, in the page's language. */
export const formLabels = (t: Translate) => ({
  copy: t("portal.common.copy"),
  copied: t("portal.common.copied"),
  busy: t("portal.common.busy"),
  error: t("portal.common.error"),
  fix: t("portal.common.fix"),
});

/** A table that scrolls sideways on a phone; focusable so a keyboard can scroll it (axe: scrollable-region-focusable). */
export function Table({ label, head, children, testId }: { label: string; head: ReactNode[]; children: ReactNode; testId?: string }) {
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
        <tbody>{children}</tbody>
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
  const href = (p: number) =>
    "?" + new URLSearchParams({ ...Object.fromEntries(Object.entries(params).filter(([, v]) => v)), page: String(p) }).toString();
  return (
    <nav className="pager" aria-label={t("portal.common.pageOf", { page, pages })}>
      {page > 1 ? <a href={href(page - 1)}>{t("portal.common.previous")}</a> : null}
      <span>{t("portal.common.pageOf", { page, pages: Math.max(1, pages) })}</span>
      {page < pages ? <a href={href(page + 1)}>{t("portal.common.next")}</a> : null}
    </nav>
  );
}

export const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
export type Query = Promise<Record<string, string | string[] | undefined>>;
