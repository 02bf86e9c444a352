import type { Paging } from "@/lib/admin-views/paging";
import type { Translate } from "@/lib/i18n/messages";
import { DataTable, type DataColumn, type DataRow } from "./data-table";

// Issue 34.5: the two ways the console shows a DataTable, so each page passes
// only its columns and rows (the pager's words and paging props were copied
// into every page).

/** The pager's words in the page's language. */
export function tableLabels(t: Translate) {
  return { previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") };
}

/** A list page's table: one page of rows, paged and sorted through the URL (?page, ?size, ?sort, ?dir). */
export function PagedTable({
  paging,
  t,
  ...table
}: {
  testId: string;
  columns: DataColumn[];
  rows: DataRow[];
  total: number;
  paging: Paging<string>;
  t: Translate;
}) {
  return <DataTable {...table} page={paging.page} pageSize={paging.pageSize} sort={paging.sort} dir={paging.dir} labels={tableLabels(t)} />;
}

/** A short list shown whole, without a pager (an order's ledger, the queues on the jobs page). */
export function WholeTable({ t, ...table }: { testId?: string; columns: DataColumn[]; rows: DataRow[]; t: Translate }) {
  return (
    <DataTable
      {...table}
      total={table.rows.length}
      pager={false}
      page={1}
      pageSize={Math.max(table.rows.length, 1)}
      labels={tableLabels(t)}
    />
  );
}
