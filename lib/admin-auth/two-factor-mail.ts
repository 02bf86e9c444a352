import { log } from "../log";
import { sendMail } from "../mail/send-mail";
import { getSettings } from "../settings/get-settings";
import type { TotpAccount } from "./totp-account";

// Issue 33.6: the account's owner hears that two-factor went on, at the
// account's own address, so a thief who turned it on with a stolen session
// and password cannot do it unseen. Sent after the change commits, through
// the site's one mail function; never throws (a mail outage does not undo it).

const TEXTS = {
  en: {
    subject: "Two-factor sign-in was turned on",
    body: (where: string, at: string, ip: string) =>
      `Two-factor sign-in was turned on for your ${where} account at ${at} (UTC) from address ${ip}. ` +
      "Every other signed-in session was ended. If this was not you, reset your password and tell an administrator at once.",
    where: { admin: "admin console", buyer: "buyer portal" },
  },
  "zh-CN": {
    subject: "已开启两步验证",
    body: (where: string, at: string, ip: string) =>
      `您的${where}账户已于 ${at}（UTC）从地址 ${ip} 开启两步验证，其他已登录的会话均已结束。如非本人操作，请立即重置密码并联系管理员。`,
    where: { admin: "管理后台", buyer: "采购商门户" },
  },
} as const;

export async function mailTwoFactorOn({ to, kind, ip }: { to: string; kind: TotpAccount["kind"]; ip: string | null | undefined }) {
  try {
    const { siteName, language } = await getSettings();
    const text = TEXTS[language === "en" ? "en" : "zh-CN"];
    const at = new Date().toISOString().slice(0, 16).replace("T", " ");
    const sent = await sendMail({ to, subject: `${siteName}: ${text.subject}`, text: `${text.body(text.where[kind], at, ip || "?")}\n` });
    if (!sent.ok && sent.configured) log.warn({ kind, error: sent.error }, "two-factor mail not sent");
  } catch (err) {
    log.warn({ kind, error: err instanceof Error ? err.message : String(err) }, "two-factor mail not sent");
  }
}
