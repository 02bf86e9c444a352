import { ActionForm } from "@/components/action-form";
import { TextField, Toggle } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { NoMailBanner } from "../no-mail-banner";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { getI18n } from "@/lib/i18n/server";
import { getSettings } from "@/lib/settings/get-settings";
import { saveSettings } from "./actions";

export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  await requireAdmin();
  const { t } = await getI18n();
  const s = await getSettings();
  return (
    <>
      <PageHeader title={t("settings.title")} />
      <NoMailBanner />
      <Card>
        <ActionForm action={saveSettings} submitLabel={t("common.save")} keepValues testId="settings-form">
          <TextField name="site_name" label={t("settings.siteName")} defaultValue={s.siteName} required />
          <TextField
            name="public_base_url"
            type="url"
            label={t("settings.publicBaseUrl")}
            defaultValue={s.publicBaseUrl}
            help={t("settings.publicBaseUrlHelp")}
            required
          />
          <Toggle
            name="image_exposure"
            label={t("settings.imageExposure")}
            defaultChecked={s.imageExposure}
            help={t("settings.imageExposureNote")}
          />
          <Toggle
            name="points_debit_enabled"
            label={t("settings.pointsDebit")}
            defaultChecked={s.pointsDebitEnabled}
            help={t("settings.pointsDebitNote")}
          />
          <TextField
            name="rate_limit_per_key"
            type="number"
            inputMode="numeric"
            label={t("settings.rateLimitPerKey")}
            defaultValue={s.rateLimitPerKey}
            required
          />
          <TextField
            name="rate_limit_per_ip"
            type="number"
            inputMode="numeric"
            label={t("settings.rateLimitPerIp")}
            defaultValue={s.rateLimitPerIp}
            required
          />
          <div className="field">
            <label htmlFor="f-language">{t("settings.language")}</label>
            <select id="f-language" name="language" defaultValue={s.language}>
              <option value="zh-CN">简体中文</option>
              <option value="en">English</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-buyer-registration">{t("topUps.registration")}</label>
            <select id="f-buyer-registration" name="buyer_registration" defaultValue={s.buyerRegistration}>
              <option value="off">{t("topUps.registrationOff")}</option>
              <option value="approval">{t("topUps.registrationApproval")}</option>
            </select>
          </div>
        </ActionForm>
      </Card>
    </>
  );
}
