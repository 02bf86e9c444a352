import { Card, PageHeader } from "@/components/page-header";
import { PortalForm } from "@/components/portal-form";
import { readTotpState } from "@/lib/admin-auth/totp-account";
import { db } from "@/lib/db/client";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { listBuyerSessions } from "@/lib/portal-auth/buyer-session";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { formLabels } from "../ui";

export const dynamic = "force-dynamic";

/**
 * The buyer's signed-in sessions, each of which can be ended (decision 0038),
 * the password (issue 35.4: the current one asked again) and two-factor
 * sign-in (issue 24.1, the console's rules).
 */
export default async function PortalAccountPage() {
  const buyer = await requireBuyer({ pending: "allowed" }); // issue 33.3: its own sessions and two-factor
  const { t } = await getI18n();
  const sessions = await listBuyerSessions(buyer.userId);
  const { totpEnabled } = await readTotpState(db(), { kind: "buyer", id: buyer.userId });
  const labels = formLabels(t);
  return (
    <>
      <PageHeader title={t("portal.account.title")} description={buyer.email} />
      <Card title={t("portal.account.sessions")}>
        <ul>
          {sessions.map((s) => (
            <li key={s.id}>
              {s.ip ?? "?"} · {t("portal.account.started")} {formatDateTime(s.createdAt)} · {t("portal.account.lastSeen")}{" "}
              {formatDateTime(s.lastSeenAt)}
              {s.id === buyer.sessionId ? (
                ` · ${t("portal.account.thisSession")}`
              ) : (
                <PortalForm
                  action={`/portal/api/sessions/${s.id}/end`}
                  submitLabel={t("portal.account.end")}
                  variant="plain"
                  labels={labels}
                  okMessage={t("portal.account.ended")}
                />
              )}
            </li>
          ))}
        </ul>
        <p>
          <a href="/portal/forgot">{t("portal.signIn.forgot")}</a>
        </p>
      </Card>
      <Card title={t("portal.account.password")}>
        <p>{t("portal.account.passwordHelp")}</p>
        <PortalForm
          action="/portal/api/password"
          submitLabel={t("password.submit")}
          labels={labels}
          okMessage={t("portal.account.passwordChanged")}
          testId="portal-password-form"
        >
          <div className="field">
            <label htmlFor="pw-current">{t("password.current")}</label>
            <input id="pw-current" name="password" type="password" autoComplete="current-password" required />
          </div>
          <div className="field">
            <label htmlFor="pw-new">{t("password.new")}</label>
            <input id="pw-new" name="newPassword" type="password" autoComplete="new-password" minLength={10} required />
          </div>
          <div className="field">
            <label htmlFor="pw-confirm">{t("password.confirm")}</label>
            <input id="pw-confirm" name="confirm" type="password" autoComplete="new-password" required />
          </div>
        </PortalForm>
      </Card>
      <Card title={t("security.title")}>
        <p data-testid="portal-two-factor-state">{totpEnabled ? t("security.enabled") : t("security.disabledState")}</p>
        {totpEnabled ? (
          <PortalForm
            action="/portal/api/two-factor/disable"
            submitLabel={t("security.disable")}
            variant="danger"
            labels={labels}
            okMessage={t("security.disabledDone")}
            testId="portal-totp-disable-form"
          >
            <div className="field">
              <label htmlFor="totp-password">{t("security.password")}</label>
              <input id="totp-password" name="password" type="password" autoComplete="current-password" required />
            </div>
          </PortalForm>
        ) : (
          <>
            {/* No refresh after these two: the page would swap the forms and the once-only secret or recovery codes would vanish unseen. */}
            <PortalForm
              action="/portal/api/two-factor/begin"
              submitLabel={t("security.start")}
              labels={labels}
              okMessage={t("security.start")}
              testId="portal-totp-begin-form"
              refresh={false}
            >
              <div className="field">
                <label htmlFor="totp-begin-password">{t("security.password")}</label>
                <input id="totp-begin-password" name="password" type="password" autoComplete="current-password" required />
                <div className="help">{t("security.passwordHelp")}</div>
              </div>
            </PortalForm>
            <PortalForm
              action="/portal/api/two-factor/enable"
              submitLabel={t("security.enable")}
              labels={labels}
              okMessage={t("security.enabledOthersOut")}
              testId="portal-totp-enable-form"
              refresh={false}
            >
              <div className="field">
                <label htmlFor="totp-code">{t("security.confirmCode")}</label>
                <input id="totp-code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required />
              </div>
              <div className="field">
                <label htmlFor="totp-enable-password">{t("security.password")}</label>
                <input id="totp-enable-password" name="password" type="password" autoComplete="current-password" required />
              </div>
            </PortalForm>
          </>
        )}
      </Card>
    </>
  );
}
