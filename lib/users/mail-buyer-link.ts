import { log } from "../log";
import { sendMail } from "../mail/send-mail";
import { getSettings } from "../settings/get-settings";
import type { BuyerLinkKind } from "./issue-buyer-link";

// Issue 24.1 with issue 25: a portal link (invitation, password reset) goes to
// the buyer by e-mail when an e-mail channel is configured. Called after the
// link's transaction commits; never throws. The URL is in the mail only: it is
// not logged (it opens the account until used).

const TEXTS = {
  en: {
    invite: {
      subject: "Your buyer portal invitation",
      body: "You are invited to the buyer portal. Choose your password here (valid 72 hours, once):",
    },
    reset: {
      subject: "Reset your buyer portal password",
      body: "Someone asked to reset your buyer portal password. Choose a new one here (valid 2 hours, once); ignore this mail if it was not you:",
    },
  },
  "zh-CN": {
    invite: { subject: "采购商门户邀请", body: "您被邀请使用采购商门户。请在此设置密码（72 小时内有效，仅可使用一次）：" },
    reset: {
      subject: "重置采购商门户密码",
      body: "有人请求重置您的采购商门户密码。请在此设置新密码（2 小时内有效，仅可使用一次）；如非本人操作请忽略本邮件：",
    },
  },
} as const;

/** True when the mail was accepted by the SMTP server; false when none is configured or sending failed (logged). */
export async function mailBuyerLink({ to, kind, url }: { to: string; kind: BuyerLinkKind; url: string }): Promise<boolean> {
  try {
    const { siteName, language } = await getSettings();
    const text = TEXTS[language === "en" ? "en" : "zh-CN"][kind];
    const sent = await sendMail({ to, subject: `${siteName}: ${text.subject}`, text: `${text.body}\n\n${url}\n` });
    if (!sent.ok && sent.configured) log.warn({ kind, error: sent.error }, "buyer link mail not sent");
    return sent.ok;
  } catch (err) {
    log.warn({ kind, error: err instanceof Error ? err.message : String(err) }, "buyer link mail not sent");
    return false;
  }
}
