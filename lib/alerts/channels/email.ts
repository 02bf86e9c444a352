import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { checkedAddresses, RestrictedAddressError } from "../../callbacks/address-policy";
import { HostResolutionError } from "../../net/resolve-host";
import { alertText, type AlertMessage } from "../format-message";
import { parseSmtpUrl, SmtpUrlError, type SmtpSettings } from "../smtp-url";
import type { SendResult } from "./send-result";

// Issue 25: e-mail over SMTP with nodemailer. The whole SMTP URL
// (smtp://user:password@host:587, smtps:// for TLS from the start) is the
// channel's secret; the transport is made per send, so a changed channel
// takes effect at once and no connection is held between alerts.
//
// Issue 33: the URL is parsed again here, before every send, by our own
// parser (smtp-url.ts), and nodemailer gets only the options object built
// below, never a URL. The host is resolved and checked by the D29 address
// policy (the callbacks' and webhooks' one, with its private-network switch),
// and nodemailer connects to the checked address: a name that changes its
// answer between check and connect gains nothing. TLS still verifies the
// certificate against the name (tls.servername).

const TIMEOUT_MS = 15_000;

export interface MailInput {
  smtpUrl: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/** nodemailer's options, from our settings and the checked address: nothing else can reach it. */
function transportOptions(s: SmtpSettings, address: string): SMTPTransport.Options {
  return {
    host: address,
    port: s.port,
    secure: s.security === "tls",
    requireTLS: s.security === "starttls",
    ...(s.user !== null ? { auth: { user: s.user, pass: s.password ?? "" } } : {}),
    ...(address !== s.host ? { tls: { servername: s.host } } : {}),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  };
}

/** One mail; an error is our own text and the server's reply code (its text may echo what we sent). */
export async function sendSmtpMail({ smtpUrl, from, to, subject, text }: MailInput): Promise<SendResult> {
  const started = Date.now();
  const failed = (why: string): SendResult => ({ ok: false, error: `SMTP: ${why}`, durationMs: Date.now() - started });
  let settings: SmtpSettings;
  let address: string;
  try {
    settings = parseSmtpUrl(smtpUrl);
    address = (await checkedAddresses(settings.host))[0].address;
  } catch (err) {
    if (err instanceof SmtpUrlError) return { ok: false, error: err.message, durationMs: Date.now() - started };
    if (err instanceof RestrictedAddressError || err instanceof HostResolutionError) return failed(err.message);
    return failed("the host could not be checked");
  }
  try {
    const transport = nodemailer.createTransport(transportOptions(settings, address));
    try {
      await transport.sendMail({ from, to, subject, text });
    } finally {
      transport.close();
    }
    return { ok: true, error: null, durationMs: Date.now() - started };
  } catch (err) {
    const e = err as { code?: string; responseCode?: number; name?: string };
    return failed([e.code, e.responseCode].filter((x) => x !== undefined).join(" ") || e.name || "error");
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
