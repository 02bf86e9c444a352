import type { ReactNode } from "react";

/**
 * A GET form above a table: search text plus optional filter controls. It
 * resets to page 1 by leaving `page` out; sorting is kept as hidden fields.
 */
export function SearchBar({
  q,
  placeholder,
  submitLabel,
  children,
  keep = {},
}: {
  q?: string;
  placeholder: string;
  submitLabel: string;
  children?: ReactNode;
  keep?: Record<string, string | undefined>;
}) {
  return (
    <form method="get" className="table-tools" role="search">
      <input type="search" name="q" defaultValue={q} placeholder={placeholder} aria-label={placeholder} />
      {children}
      {Object.entries(keep).map(([k, v]) => (v ? <input key={k} type="hidden" name={k} value={v} /> : null))}
      <button type="submit" className="btn">
        {submitLabel}
      </button>
    </form>
  );
}
