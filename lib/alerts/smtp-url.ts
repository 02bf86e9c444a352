import { appError } from "../errors";

// Issue 25.1: an e-mail channel is configured by host, port, TLS, user and
// password in the console; the channel keeps them as ONE SMTP URL (its sealed
// secret, add-channel.ts). Made here, with each part percent-encoded, so a
// password holding "@", "/", ":" or "#" reaches the server as typed
// (nodemailer decodes the URL's user and password).

export type SmtpSecurity = "starttls" | "tls" | "none";
export const SMTP_SECURITY: readonly SmtpSecurity[] = ["starttls", "tls", "none"];

export interface SmtpParts {
  host: string;
  /** Empty: 465 with tls, else 587. */
  port?: string;
  /** starttls: upgrade required (587); tls: TLS from the start (smtps, 465); none: plain (a local relay). */
  security: SmtpSecurity;
  user?: string;
  password?: string;
}

export function smtpUrlOf(p: SmtpParts): string {
  const host = p.host.trim();
  if (!/^[A-Za-z0-9.-]{1,253}$|^\[[0-9A-Fa-f:.]{2,45}\]$/.test(host)) throw appError("bad_request", "SMTP host: a host name or address");
  const port = p.port?.trim() || (p.security === "tls" ? "465" : "587");
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw appError("bad_request", "SMTP port: 1 to 65535");
  const user = p.user ?? "";
  const auth = user ? `${encodeURIComponent(user)}:${encodeURIComponent(p.password ?? "")}@` : "";
  const scheme = p.security === "tls" ? "smtps" : "smtp";
  return `${scheme}://${auth}${host}:${port}${p.security === "starttls" ? "?requireTLS=true" : ""}`;
}
