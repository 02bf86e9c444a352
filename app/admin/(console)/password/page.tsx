import { ActionForm } from "@/components/action-form";
import { TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireSession } from "@/lib/admin-auth/require-admin";
import { getI18n } from "@/lib/i18n/server";
import { changePasswordAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function PasswordPage() {
  const { passwordChangeRequired } = await requireSession();
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t("password.title")} description={t("password.description")} />
      {passwordChangeRequired ? (
        <div className="msg msg-warn" role="alert" data-testid="password-change-required">
          {t("password.required")}
        </div>
      ) : null}
      <Card title={t("password.title")}>
        <ActionForm action={changePasswordAction} submitLabel={t("password.submit")} testId="password-form">
          <TextField name="current" type="password" label={t("password.current")} autoComplete="current-password" required />
          <TextField name="next" type="password" label={t("password.new")} autoComplete="new-password" required />
          <TextField name="confirm" type="password" label={t("password.confirm")} autoComplete="new-password" required />
        </ActionForm>
      </Card>
    </>
  );
}
