import Link from "next/link";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listCategoryTree } from "@/lib/admin-views/list-categories";
import { getI18n } from "@/lib/i18n/server";
import { ProductEditor } from "../../product-editor";

export const dynamic = "force-dynamic";

export default async function NewProductPage() {
  await requireAdmin();
  const { t, locale } = await getI18n();
  return (
    <>
      <PageHeader title={t("catalog.newProduct")}>
        <Link href="/admin/catalog/products">{t("common.back")}</Link>
      </PageHeader>
      <Card>
        <ProductEditor categories={await listCategoryTree()} t={t} locale={locale} />
      </Card>
    </>
  );
}
