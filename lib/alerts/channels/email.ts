import nodemailer from "nodemailer";
import { alertText, type AlertMessage } from "../format-message";
import type { SendResult } from "./send-result";

// Issue 25: e-mail over SMTP with nodemailer. The whole SMTP URL
// (smtp://user:password@host:587, smtps:// for TLS from the start) is the
// channel's secret; the transport is made per send, so a changed channel
// takes effect at once and no connection is held between alerts.

const TIMEOUT_MS = 15_000;

export interface MailInput {
  smtpUrl: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/** One mail; an error is reduced to its code and the server's reply code (its text may echo what we sent). */
export async function sendSmtpMail({ smtpUrl, from, to, subject, text }: MailInput): Promise<SendResult> {
  const started = Date.now();
  try {
    const transport = nodemailer.createTransport(smtpUrl, {});
    Object.assign(transport.options, { connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS });
    await transport.sendMail({ from, to, subject, text });
    transport.close();
    return { ok: true, error: null, durationMs: Date.now() - started };
  } catch (err) {
    const e = err as { code?: string; responseCode?: number; name?: string };
    const what = [e.code, e.responseCode].filter((x) => x !== undefined).join(" ") || e.name || "error";
    return { ok: false, error: `SMTP: ${what}`, durationMs: Date.now() - started };
  }
}

export function sendEmail(
  config: { from: string; to: string[] },
  secret: { smtpUrl: string },
  m: AlertMessage,
  siteName: string,
): Promise<SendResult> {
  return sendSmtpMail({
    smtpUrl: secret.smtpUrl,
    from: config.from,
    to: config.to,
    subject: `[${siteName}] ${m.title}`,
    text: alertText(m, siteName),
  });
}
