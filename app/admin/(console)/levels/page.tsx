import { ActionForm } from "@/components/action-form";
import { DataTable } from "@/components/data-table";
import { HiddenField, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { one, type SearchParams } from "@/lib/admin-views/paging";
import { getI18n } from "@/lib/i18n/server";
import { listLevels } from "@/lib/levels/list-levels";
import { createLevelAction, renameLevelAction } from "./actions";

export const dynamic = "force-dynamic";

/** Member levels (issue 12.4): list, add, and rename one (?level=<slug>). */
export default async function LevelsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin();
  const { t } = await getI18n();
  const levels = await listLevels();
  const wanted = one(await searchParams, "level");
  const editing = levels.find((l) => l.slug === wanted);
  return (
    <>
      <PageHeader title={t("levels.title")} description={t("levels.description")} />
      <DataTable
        testId="levels-table"
        columns={[
          { id: "slug", header: t("levels.slug") },
          { id: "en", header: t("levels.nameEn") },
          { id: "zh", header: t("levels.nameZh") },
          { id: "users", header: t("levels.users") },
          { id: "prices", header: t("levels.skuPrices") },
          { id: "actions", header: t("common.actions") },
        ]}
        rows={levels.map((l) => ({
          id: l.slug,
          cells: {
            slug: l.isDefault ? { text: `${l.slug} (${t("levels.default")})`, badge: "active" } : l.slug,
            en: l.name.en,
            zh: l.name["zh-CN"],
            users: String(l.users),
            prices: String(l.skuPrices),
            actions: { text: t("levels.rename"), href: `/admin/levels?level=${encodeURIComponent(l.slug)}` },
          },
        }))}
        total={levels.length}
        pager={false}
        page={1}
        pageSize={Math.max(levels.length, 1)}
        labels={{ previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") }}
      />
      {editing ? (
        <Card title={t("levels.renameTitle", { slug: editing.slug })}>
          <ActionForm key={editing.slug} action={renameLevelAction} submitLabel={t("levels.rename")} keepValues testId="rename-level-form">
            <HiddenField name="slug" value={editing.slug} />
            <TextField name="name_en" id="f-rename-en" label={t("levels.nameEn")} defaultValue={editing.name.en} required />
            <TextField name="name_zh" id="f-rename-zh" label={t("levels.nameZh")} defaultValue={editing.name["zh-CN"]} required />
          </ActionForm>
        </Card>
      ) : null}
      <Card title={t("levels.create")}>
        <ActionForm action={createLevelAction} submitLabel={t("levels.create")} testId="create-level-form">
          <TextField name="slug" label={t("levels.slug")} help={t("levels.slugHelp")} required autoComplete="off" />
          <TextField name="name_en" label={t("levels.nameEn")} required />
          <TextField name="name_zh" label={t("levels.nameZh")} required />
        </ActionForm>
      </Card>
    </>
  );
}
