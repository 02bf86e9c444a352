import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { formatAmount } from "../protocol/amount";
import { toLanguageText } from "../protocol/language";
import { orderWhere, type OrderFilters } from "./order-filters";

const HEADER = [
  "order_no",
  "downstream_order_no",
  "status",
  "profile",
  "buyer",
  "api_key",
  "product",
  "sku",
  "quantity",
  "amount",
  "error_message",
  "created_at",
  "completed_at",
  "form_data",
];

// Where a spreadsheet may start a new cell: the separators Excel, LibreOffice
// and Sheets offer on import (comma, semicolon, tab, pipe) and line breaks.
// A cell that holds one is split there when the file is opened with that
// separator, and the piece after it starts a cell of its own.
// A lookbehind, so a tab or CR that is itself neutralised still starts the next piece.
const FORMULA_START = /(?<=^|[,;\t|\r\n])( *)(?=[=+\-@\t\r])/g;

/**
 * One CSV cell (OWASP "CSV injection"): always quoted, and a leading
 * = + - @ tab or CR, at the start of the cell and after every separator
 * inside it, neutralised with a quote mark, so opening the file runs no
 * formula whatever separator the program splits on.
 */
export function csvCell(value: string | number | null | undefined): string {
  const s = value === null || value === undefined ? "" : String(value);
  return `"${s.replace(FORMULA_START, "$1'").replace(/"/g, '""')}"`;
}

/**
 * Exports the orders matching the table's filters: the audit row (who, which
 * filters) is written first, then the lines are read as the caller streams
 * them. A read, not a change, but exports are recorded (issue 34.3: the
 * service audits, never its route).
 */
export async function exportOrdersCsv(
  filters: OrderFilters,
  { actor, batchSize = 500 }: { actor: Actor; batchSize?: number },
): Promise<AsyncGenerator<string, void>> {
  await writeAuditLog(db(), { actor, action: "orders.export", targetType: "order", details: { ...filters } });
  return orderCsvLines(filters, batchSize);
}

/**
 * The orders matching the filters as CSV lines (header first), read
 * in batches by id so a large export streams with bounded memory. Form data
 * appears MASKED (field names only: "phone=***"); no API secret, card key,
 * delivered payload or form value is ever selected.
 */
async function* orderCsvLines(filters: OrderFilters, batchSize: number): AsyncGenerator<string, void> {
  // A byte-order mark so spreadsheet programs read the UTF-8 (Chinese titles) correctly.
  yield "\uFEFF" + HEADER.map(csvCell).join(",") + "\r\n";
  const where = orderWhere(filters);
  let afterId = 0;
  for (;;) {
    const rows = await db().order.findMany({
      where: { AND: [where, { id: { gt: afterId } }] },
      orderBy: { id: "asc" },
      take: batchSize,
      select: {
        id: true,
        orderNo: true,
        downstreamOrderNo: true,
        status: true,
        profile: true,
        amountCents: true,
        errorMessage: true,
        createdAt: true,
        completedAt: true,
        manualFormData: true,
        user: { select: { email: true } },
        credential: { select: { apiKey: true } },
        items: { select: { title: true, quantity: true, sku: { select: { skuCode: true } } }, orderBy: { id: "asc" } },
      },
    });
    if (!rows.length) return;
    let chunk = "";
    for (const o of rows) {
      const form =
        o.manualFormData && typeof o.manualFormData === "object" && !Array.isArray(o.manualFormData) ? Object.keys(o.manualFormData) : [];
      const title = (t: unknown) => {
        const l = toLanguageText(t);
        return l.en || l["zh-CN"];
      };
      chunk +=
        [
          o.orderNo,
          o.downstreamOrderNo,
          o.status,
          o.profile,
          o.user.email,
          o.credential.apiKey,
          o.items.map((i) => title(i.title)).join(" | "),
          o.items.map((i) => i.sku.skuCode).join(" | "),
          o.items.reduce((n, i) => n + i.quantity, 0),
          formatAmount(o.amountCents),
          o.errorMessage ?? "",
          o.createdAt.toISOString(),
          o.completedAt?.toISOString() ?? "",
          form.map((k) => `${k}=***`).join("; "),
        ]
          .map(csvCell)
          .join(",") + "\r\n";
    }
    yield chunk;
    afterId = rows[rows.length - 1].id;
    if (rows.length < batchSize) return;
  }
}
