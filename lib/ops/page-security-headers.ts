import crypto from "node:crypto";
import type http from "node:http";
import { REFERENCE_CSP } from "../api-docs/reference-page";

/**
 * Issue 22.7 (decision 0032): the headers a browser needs on the pages people
 * open in one, the console (its sign-in page included) and the API reference
 * (/docs). Set by our HTTP server before Next renders, because Next reads the
 * script nonce from the request's Content-Security-Policy header and stamps
 * it on every script it writes (its inline bootstrap and RSC payload need one);
 * a header Next sees on the request is ours, never the client's.
 *
 * - frame-ancestors 'none': no other site frames the console (clickjacking).
 * - scripts: this response's nonce and what those scripts load
 *   ('strict-dynamic'); no inline script without the nonce, no eval.
 * - styles: 'unsafe-inline', because the pages set style attributes (React
 *   `style={…}`), which a nonce cannot cover; CSS cannot run script.
 * - images: our own origin only, so no image URL that reached us from an
 *   upstream's catalogue is ever fetched by an administrator's browser, even
 *   inside the content preview (a srcdoc frame inherits this policy).
 * - Referrer-Policy same-origin: console URLs (order numbers, buyer ids)
 *   never leave in a Referer.
 * - Strict-Transport-Security when the public URL (NEXTAUTH_URL) is https.
 *   Not from the public_base_url setting: an HSTS answer binds browsers for a
 *   year, and a setting edited in the console should not be able to do that.
 */
// Issue 24: the buyer portal is a console too (same policy).
const CONSOLE = /^\/(?:admin|portal)(?:[/?#]|$)/;
const DOCS = /^\/docs(?:[/?#]|$)/;

export function consolePolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export const HSTS = "max-age=31536000; includeSubDomains";

export function applyPageSecurityHeaders(req: http.IncomingMessage, res: http.ServerResponse, opts: { https: boolean }): void {
  // Next takes its nonce from these request headers: a client must not choose it.
  delete req.headers["content-security-policy"];
  delete req.headers["content-security-policy-report-only"];
  const url = req.url ?? "/";
  let policy: string;
  if (CONSOLE.test(url)) {
    policy = consolePolicy(crypto.randomBytes(16).toString("base64"));
    req.headers["content-security-policy"] = policy;
  } else if (DOCS.test(url)) {
    policy = REFERENCE_CSP; // a static page without inline script: 'self' only, no nonce
  } else return;
  // Next keeps a header set here over a route handler's own (send-response: "only append if not present").
  res.setHeader("Content-Security-Policy", policy);
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (opts.https) res.setHeader("Strict-Transport-Security", HSTS);
}
