import { PagedTable } from "@/components/console-tables";
import { PageHeader } from "@/components/page-header";
import { SearchBar } from "@/components/search-bar";
import { openListPage, type ListPageProps } from "@/lib/admin-auth/open-list-page";
import { auditFacts } from "@/lib/admin-views/audit-details";
import { listAuditLog } from "@/lib/admin-views/list-audit-log";
import { formatDateTime } from "@/lib/i18n/format";

export const dynamic = "force-dynamic";

/** What the row recorded, one fact a line, amounts as amounts (lib/admin-views/audit-details.ts). */
function AuditDetails({ details }: { details: unknown }) {
  const facts = auditFacts(details);
  if (!facts.length) return null;
  return (
    <ul className="facts">
      {facts.map((f, i) => (
        <li key={i}>
          {/* The recorded field name, kept in English (decision 0083): data, not page words. */}
          {f.label ? (
            <span className="fact-label" translate="no">
              {f.label}:{" "}
            </span>
          ) : null}
          <span translate="no">{f.value}</span>
        </li>
      ))}
    </ul>
  );
}

export default async function AuditPage({ searchParams }: ListPageProps) {
  const { t, messages, paging, q } = await openListPage(searchParams, ["createdAt"] as const, "createdAt");
  // Issue 35.2: an action in words; one no table knows yet, spelled out rather than shown as a code.
  const wordOf = (table: "act" | "target", code: string) =>
    (messages as Record<string, string>)[`audit.${table}.${code}`] ?? code.replace(/[_.]+/g, " ");
  const { total, rows } = await listAuditLog({ paging, q });
  return (
    <>
      <PageHeader title={t("audit.title")} />
      <SearchBar q={q} placeholder={`${t("audit.action")} / ${t("audit.actor")}`} submitLabel={t("common.search")} />
      <PagedTable
        testId="audit-table"
        columns={[
          { id: "createdAt", header: t("audit.when"), sortable: true },
          { id: "actor", header: t("audit.actor") },
          { id: "action", header: t("audit.action") },
          { id: "target", header: t("audit.target") },
          { id: "ip", header: t("audit.ip") },
          { id: "details", header: t("common.details"), wrap: true },
        ]}
        rows={rows.map((r) => ({
          id: String(r.id),
          cells: {
            createdAt: formatDateTime(r.createdAt),
            actor: r.actor,
            action: wordOf("act", r.action),
            target: [r.targetType && wordOf("target", r.targetType), r.targetId].filter(Boolean).join(" "),
            ip: r.ip ?? "",
            details: { node: <AuditDetails details={r.details} /> },
          },
        }))}
        total={total}
        paging={paging}
        t={t}
      />
    </>
  );
}
