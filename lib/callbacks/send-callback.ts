import http from "node:http";
import https from "node:https";
import net from "node:net";
import { signedHeaders } from "../protocol/client";
import { callbackTimeoutMs } from "./callback-config";
import { HostResolutionError } from "../net/resolve-host";
import { bareHost, guardedLookup, RestrictedAddressError, restrictedReason, systemResolver, type Resolver } from "./address-policy";

export interface CallbackSendResult {
  ok: boolean;
  httpStatus: number | null;
  /** Short, safe text: never the body, the secret or the signature. */
  error: string | null;
  durationMs: number;
}

/**
 * The signed headers of a callback (D27, section 5 rule 6): the credential
 * that created the order, over POST, the callback URL's path without query,
 * a fresh timestamp per attempt, and the exact body bytes. The one place
 * callbacks are signed.
 */
export function callbackHeaders(url: URL, body: string, creds: { apiKey: string; apiSecret: string }): Record<string, string> {
  return signedHeaders(creds, "POST", url.pathname, body);
}

/**
 * One delivery attempt (D28): POST the stored body, success on any 2xx within
 * the timeout (10 s), redirects not followed (a raw request never follows
 * them; a 3xx is a failed attempt). The address is checked again here (D29):
 * an IP literal directly, a host name through guardedLookup.
 */
export async function sendCallback(
  urlText: string,
  body: string,
  creds: { apiKey: string; apiSecret: string },
  opts: { resolve?: Resolver; timeoutMs?: number } = {},
): Promise<CallbackSendResult> {
  const started = Date.now();
  const done = (httpStatus: number | null, error: string | null): CallbackSendResult => ({
    ok: error === null && httpStatus !== null && httpStatus >= 200 && httpStatus < 300,
    httpStatus,
    error: error ?? (httpStatus !== null && (httpStatus < 200 || httpStatus >= 300) ? `HTTP ${httpStatus}` : null),
    durationMs: Date.now() - started,
  });

  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    return done(null, "invalid callback URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return done(null, "callback URL must use http or https");
  const host = bareHost(url);
  if (net.isIP(host)) {
    // Node does not call `lookup` for IP literals, so they are checked here.
    const reason = restrictedReason(host);
    if (reason) return done(null, `refused to connect: ${reason}`);
  }

  const timeoutMs = opts.timeoutMs ?? callbackTimeoutMs();
  const headers = {
    ...callbackHeaders(url, body, creds),
    "Content-Length": String(Buffer.byteLength(body)),
    "User-Agent": "cardkey-supplier-callback/1.0",
  };
  const request = url.protocol === "https:" ? https.request : http.request;

  return new Promise<CallbackSendResult>((resolve) => {
    let settled = false;
    const finish = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(status, error));
    };
    const req = request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: url.pathname + url.search,
        method: "POST",
        headers,
        lookup: guardedLookup(opts.resolve ?? systemResolver),
        agent: false, // no pooled sockets: every attempt resolves and checks afresh
        servername: net.isIP(host) ? undefined : host,
      },
      (res) => {
        // The status decides; the receiver's body is not read (nor can it keep us waiting).
        finish(res.statusCode ?? null, null);
        res.on("error", () => {});
        res.destroy();
      },
    );
    const timer = setTimeout(() => {
      finish(null, `no response within ${timeoutMs} ms`);
      req.destroy();
    }, timeoutMs);
    req.on("error", (err: NodeJS.ErrnoException) => {
      // Our own messages (D29 refusal, issue 22.3 look-up failure) are safe to store; others are reduced to their code.
      const ours = err instanceof RestrictedAddressError || err instanceof HostResolutionError;
      finish(null, ours ? err.message : `connection failed: ${err.code ?? "error"}`);
    });
    req.end(body);
  });
}
