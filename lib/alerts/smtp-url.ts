import { appError } from "../errors";

// Issue 25.1: an e-mail channel is configured by host, port, TLS, user and
// password in the console; the channel keeps them as ONE SMTP URL (its sealed
// secret, add-channel.ts). Made here, with each part percent-encoded, so a
// password holding "@", "/", ":" or "#" reaches the server as typed.
//
// Issue 33.1: the URL is read back by parseSmtpUrl, never by nodemailer, whose
// URL parser turns every query parameter into a transport option (sendmail,
// path and args run a command; logger, tls.* and the rest change what is
// trusted). Only what smtpUrlOf writes is accepted: the scheme, user,
// password, host, port and `requireTLS`. Every caller (console form, CLI,
// portal and invitation mail, each send of a stored channel) goes through it.

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

/** What an SMTP URL may say, and all that reaches the mail transport (email.ts). */
export interface SmtpSettings {
  /** A host name, or an IP address without brackets. */
  host: string;
  port: number;
  security: SmtpSecurity;
  user: string | null;
  password: string | null;
}

const HOST = /^[A-Za-z0-9.-]{1,253}$|^\[[0-9A-Fa-f:.]{2,45}\]$/;
const PORT = /^[0-9]{1,5}$/;

export function smtpUrlOf(p: SmtpParts): string {
  const host = p.host.trim();
  if (!HOST.test(host)) throw appError("bad_request", "SMTP host: a host name or address");
  const port = p.port?.trim() || (p.security === "tls" ? "465" : "587");
  if (!PORT.test(port) || Number(port) < 1 || Number(port) > 65535) throw appError("bad_request", "SMTP port: 1 to 65535");
  const user = p.user ?? "";
  const auth = user ? `${encodeURIComponent(user)}:${encodeURIComponent(p.password ?? "")}@` : "";
  const scheme = p.security === "tls" ? "smtps" : "smtp";
  return `${scheme}://${auth}${host}:${port}${p.security === "starttls" ? "?requireTLS=true" : ""}`;
}

/** A refused SMTP URL; its message is one line naming what is wrong, never the URL (it holds the password). */
export class SmtpUrlError extends Error {
  constructor(why: string) {
    super(`SMTP URL: ${why}`);
    this.name = "SmtpUrlError";
  }
}

/** A name from the URL, shown in an error: printable, short. */
const shown = (s: string) => JSON.stringify(s.replace(/[^\x20-\x7e]/g, "?").slice(0, 40));

/** The settings of an SMTP URL, or a SmtpUrlError saying in one line why not. */
export function parseSmtpUrl(text: string): SmtpSettings {
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    throw new SmtpUrlError("must look like smtp://user:password@host:587 or smtps://…:465");
  }
  if (u.protocol !== "smtp:" && u.protocol !== "smtps:") throw new SmtpUrlError("the scheme must be smtp or smtps");
  if (!u.hostname || !HOST.test(u.hostname)) throw new SmtpUrlError("the host must be a host name or an IP address");
  if (u.pathname !== "" && u.pathname !== "/") throw new SmtpUrlError("no path is allowed after the host");
  if (u.hash) throw new SmtpUrlError("no #fragment is allowed (a password's # is written %23)");
  let requireTLS = false;
  const seen = new Set<string>();
  for (const [name, value] of u.searchParams) {
    if (name !== "requireTLS") throw new SmtpUrlError(`parameter ${shown(name)} is not allowed (only requireTLS)`);
    if (seen.has(name)) throw new SmtpUrlError("requireTLS is given twice");
    seen.add(name);
    if (value !== "true" && value !== "false") throw new SmtpUrlError("requireTLS must be true or false");
    requireTLS = value === "true";
  }
  const tls = u.protocol === "smtps:";
  const port = u.port ? Number(u.port) : tls ? 465 : 587;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new SmtpUrlError("the port must be 1 to 65535");
  let user: string | null = null;
  let password: string | null = null;
  try {
    if (u.username) [user, password] = [decodeURIComponent(u.username), decodeURIComponent(u.password)];
  } catch {
    throw new SmtpUrlError("the user or password is not percent-encoded correctly");
  }
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1");
  return { host, port, security: tls ? "tls" : requireTLS ? "starttls" : "none", user, password };
}

/** The reason an SMTP URL is refused, or null (for a zod refinement or a stored channel's check). */
export function smtpUrlProblem(text: string): string | null {
  try {
    parseSmtpUrl(text);
    return null;
  } catch (err) {
    if (err instanceof SmtpUrlError) return err.message;
    throw err;
  }
}
