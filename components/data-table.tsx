"use client";

import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import {
  functionalUpdate,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type PaginationState,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";

/** A cell as the server prepares it: plain text, a link, a status badge, or a server-rendered node (row actions). Never a secret. */
export type DataCell = string | { text: string; href?: string; badge?: string } | { node: ReactNode };
export interface DataColumn {
  id: string;
  header: string;
  sortable?: boolean;
  wrap?: boolean;
  /** The column holds data as typed (slugs, keys, codes): marked translate="no", never read as page words (issue 35.2). */
  data?: boolean;
}
export interface DataRow {
  id: string;
  cells: Record<string, DataCell>;
}

const features = tableFeatures({ rowSortingFeature, rowPaginationFeature });

function renderCell(cell: DataCell | undefined) {
  if (cell === undefined) return "";
  if (typeof cell === "string") return cell;
  if ("node" in cell) return cell.node;
  if (cell.href) return <Link href={cell.href}>{cell.text}</Link>;
  if (cell.badge) return <span className={`badge badge-${cell.badge}`}>{cell.text}</span>;
  return cell.text;
}

/**
 * The console's one table: @tanstack/react-table v9 with server-side paging
 * and sorting. The server page reads ?page, ?size, ?sort, ?dir, queries one
 * page and passes it here; sorting or paging in the table writes the new
 * state back to the URL, which re-renders the server page. Other query
 * parameters (filters, search) are kept.
 */
export function DataTable({
  columns,
  rows,
  total,
  page,
  pageSize,
  sort,
  dir,
  labels,
  testId,
  pager = true,
}: {
  columns: DataColumn[];
  rows: DataRow[];
  total: number;
  page: number;
  pageSize: number;
  sort?: string;
  dir?: "asc" | "desc";
  labels: { previous: string; next: string; pageOf: string; noRows: string };
  testId?: string;
  /** false for short lists shown whole (order items, ledger excerpts). */
  pager?: boolean;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();

  const columnDefs = useMemo<ColumnDef<typeof features, DataRow>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        header: c.header,
        enableSorting: !!c.sortable,
        accessorFn: (row: DataRow) => row.cells[c.id],
        cell: ({ row }) => renderCell(row.original.cells[c.id]),
      })),
    [columns],
  );

  const sorting: SortingState = sort ? [{ id: sort, desc: dir !== "asc" }] : [];
  const pagination: PaginationState = { pageIndex: page - 1, pageSize };

  const go = (next: { sorting?: SortingState; pagination?: PaginationState }) => {
    const q = new URLSearchParams(params.toString());
    if (next.sorting) {
      const s = next.sorting[0];
      if (s) {
        q.set("sort", s.id);
        q.set("dir", s.desc ? "desc" : "asc");
      } else {
        q.delete("sort");
        q.delete("dir");
      }
      q.delete("page");
    }
    if (next.pagination) {
      q.set("page", String(next.pagination.pageIndex + 1));
      q.set("size", String(next.pagination.pageSize));
    }
    router.push(`${pathname}?${q.toString()}`);
  };

  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId: (row: DataRow) => row.id,
    state: { sorting, pagination },
    manualSorting: true,
    manualPagination: true,
    rowCount: total,
    enableSortingRemoval: false,
    onSortingChange: (u: Updater<SortingState>) => go({ sorting: functionalUpdate(u, sorting) }),
    onPaginationChange: (u: Updater<PaginationState>) => go({ pagination: functionalUpdate(u, pagination) }),
  });

  const pages = Math.max(1, Math.ceil(total / pageSize));
  const { wrapRef, scrolls } = useHorizontalScroll();
  return (
    <div data-testid={testId}>
      {/* Issue 24.4: a table wider than the screen scrolls inside this box, which keyboard users must be able to reach (WCAG 2.1.1). */}
      <div className="table-wrap" ref={wrapRef} tabIndex={scrolls ? 0 : undefined}>
        <table>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <th key={header.id} aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}>
                      {header.column.getCanSort() ? (
                        <button type="button" onClick={header.column.getToggleSortingHandler()}>
                          <table.FlexRender header={header} />
                          {sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : ""}
                        </button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length}>{labels.noRows}</td>
              </tr>
            ) : (
              table.getRowModel().rows.map((row) => (
                <tr key={row.id}>
                  {row.getAllCells().map((cell) => {
                    const column = columns.find((c) => c.id === cell.column.id);
                    return (
                      <td key={cell.id} className={column?.wrap ? "wrap" : undefined} translate={column?.data ? "no" : undefined}>
                        <table.FlexRender cell={cell} />
                      </td>
                    );
                  })}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {pager ? (
        <div className="pager">
          <button type="button" className="btn" disabled={!table.getCanPreviousPage()} onClick={() => table.previousPage()}>
            {labels.previous}
          </button>
          <button type="button" className="btn" disabled={!table.getCanNextPage()} onClick={() => table.nextPage()}>
            {labels.next}
          </button>
          <span>{labels.pageOf.replace("{page}", String(page)).replace("{pages}", String(pages)).replace("{total}", String(total))}</span>
        </div>
      ) : null}
    </div>
  );
}

/**
 * Whether the table box scrolls sideways, kept current as it resizes. Assumed
 * true until measured, so the server's HTML is already keyboard-reachable;
 * a table that fits gets no useless tab stop once the browser has measured it.
 */
function useHorizontalScroll() {
  const wrapRef = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(true);
  useEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap) return;
    const measure = () => setScrolls(wrap.scrollWidth > wrap.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(wrap);
    if (wrap.firstElementChild) observer.observe(wrap.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return { wrapRef, scrolls };
}
