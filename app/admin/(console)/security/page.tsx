import { ActionForm } from "@/components/action-form";
import { TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { db } from "@/lib/db/client";
import { getI18n } from "@/lib/i18n/server";
import { beginTotpAction, disableTotpAction, enableTotpAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function SecurityPage() {
  const admin = await requireAdmin();
  const { t } = await getI18n();
  const { totpEnabled } = await db().adminUser.findUniqueOrThrow({ where: { id: admin.id }, select: { totpEnabled: true } });
  const copy = { copyLabel: t("common.copy"), copiedLabel: t("common.copied") };
  return (
    <>
      <PageHeader title={t("security.title")} description={totpEnabled ? t("security.enabled") : t("security.disabledState")} />
      {totpEnabled ? (
        <Card title={t("security.disable")}>
          <ActionForm action={disableTotpAction} submitLabel={t("security.disable")} variant="danger" testId="totp-disable-form">
            <TextField name="password" type="password" label={t("security.password")} autoComplete="current-password" required />
          </ActionForm>
        </Card>
      ) : (
        <>
          <Card title={t("security.start")}>
            <ActionForm action={beginTotpAction} submitLabel={t("security.start")} keepValues testId="totp-begin-form" {...copy}>
              <TextField
                id="f-begin-password"
                name="password"
                type="password"
                label={t("security.password")}
                help={t("security.passwordHelp")}
                autoComplete="current-password"
                required
              />
            </ActionForm>
          </Card>
          <Card title={t("security.enable")}>
            <ActionForm action={enableTotpAction} submitLabel={t("security.enable")} testId="totp-enable-form" {...copy}>
              <TextField name="code" label={t("security.confirmCode")} inputMode="numeric" autoComplete="one-time-code" required />
              <TextField
                id="f-enable-password"
                name="password"
                type="password"
                label={t("security.password")}
                autoComplete="current-password"
                required
              />
            </ActionForm>
          </Card>
        </>
      )}
    </>
  );
}
