import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { sendSmtpMail } from "../alerts/channels/email";
import type { SendResult } from "../alerts/channels/send-result";

/**
 * Issue 25: the site's one way to send an e-mail that is not an alert (the
 * buyer portal's invitations and password resets): through the SMTP server
 * and sender of the first e-mail alert channel, to the address given. Returns
 * a result (never throws); `configured: false` when no e-mail channel exists,
 * so the caller can show the link instead.
 */
export async function sendMail({
  to,
  subject,
  text,
}: {
  to: string;
  subject: string;
  text: string;
}): Promise<SendResult & { configured: boolean }> {
  const channel = await db().alertChannel.findFirst({ where: { kind: "email", deletedAt: null }, orderBy: { id: "asc" } });
  if (!channel) return { ok: false, configured: false, error: "no e-mail channel is configured", durationMs: 0 };
  let smtpUrl: string;
  try {
    smtpUrl = (JSON.parse(decryptText(channel.secretCiphertext)) as { smtpUrl?: string }).smtpUrl ?? "";
  } catch {
    return { ok: false, configured: true, error: "the e-mail channel's secret cannot be opened", durationMs: 0 };
  }
  const from = (channel.config as { from?: string }).from ?? "";
  return { ...(await sendSmtpMail({ smtpUrl, from, to: [to], subject, text })), configured: true };
}
