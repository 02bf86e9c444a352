import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { channelProblem } from "../alerts/channel-problem";
import { sendSmtpMail } from "../alerts/channels/email";
import type { SendResult } from "../alerts/channels/send-result";
import { log } from "../log";

/**
 * Issue 25: the site's one way to send an e-mail that is not an alert (the
 * buyer portal's invitations and password resets): through the SMTP server
 * and sender of the first e-mail alert channel, to the address given. Returns
 * a result (never throws); `configured: false` when no e-mail channel exists,
 * so the caller can show the link instead. Issue 33.1: a channel whose stored
 * SMTP URL our parser refuses is passed over (sendSmtpMail would refuse it
 * too); when every one is refused, the first one's reason is the error.
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
  const channels = await db().alertChannel.findMany({ where: { kind: "email", deletedAt: null }, orderBy: { id: "asc" } });
  if (!channels.length) {
    // Issue 35.4: the operator learns from the log that a mail was due and not sent (no address, no link: the link opens an account).
    log.warn({ subject }, "mail not sent: no e-mail channel is configured (add one under Alerts)");
    return { ok: false, configured: false, error: "no e-mail channel is configured", durationMs: 0 };
  }
  const channel = channels.find((c) => channelProblem(c) === null);
  if (!channel) return { ok: false, configured: true, error: channelProblem(channels[0]), durationMs: 0 };
  const smtpUrl = (JSON.parse(decryptText(channel.secretCiphertext)) as { smtpUrl?: string }).smtpUrl ?? "";
  const from = (channel.config as { from?: string }).from ?? "";
  return { ...(await sendSmtpMail({ smtpUrl, from, to: [to], subject, text })), configured: true };
}
