import http from "node:http";
import https from "node:https";
import net from "node:net";
import { signedHeaders } from "../protocol/client";
import { DUJIAO_CALLBACK_SIGNED_PATH, dujiaoSignedHeaders } from "../protocol/dujiao-next";
import type { WireDialect } from "../protocol/profiles";
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
export function callbackHeaders(
  url: URL,
  body: string,
  creds: { apiKey: string; apiSecret: string },
  dialect: WireDialect = "svc",
): Record<string, string> {
  // Decision 0090: Dujiao-Next's receiver checks its own headers over this literal path, whatever its URL.
  if (dialect === "dujiao_next") {
    return { ...dujiaoSignedHeaders(creds, "POST", DUJIAO_CALLBACK_SIGNED_PATH, body), "Content-Type": "application/json" };
  }
  return signedHeaders(creds, "POST", url.pathname, body);
}

/** Dujiao-Next's sender counts a callback as received only on HTTP 200 with a JSON body whose `ok` is true; its receiver says so. */
const MAX_ACK_BYTES = 64 * 1024;
function isDujiaoAck(text: string): boolean {
  try {
    return (JSON.parse(text) as { ok?: unknown } | null)?.ok === true;
  } catch {
    return false;
  }
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
  opts: { resolve?: Resolver; timeoutMs?: number; dialect?: WireDialect } = {},
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
    ...callbackHeaders(url, body, creds, opts.dialect),
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
        res.on("error", () => {});
        const status = res.statusCode ?? null;
        if (opts.dialect !== "dujiao_next" || status !== 200) {
          // Our protocol: the status decides; the receiver's body is not read (nor can it keep us waiting).
          // Dujiao-Next's: anything but 200 is a failure, another 2xx too.
          const not200 = opts.dialect === "dujiao_next" && status !== null && status >= 200 && status < 300;
          finish(status, not200 ? `HTTP ${status}, not 200` : null);
          res.destroy();
          return;
        }
        // Dujiao-Next: a bounded read of the answer, within the same timeout.
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ACK_BYTES) {
            finish(200, "the answer was too large to be an acknowledgement");
            res.destroy();
          } else chunks.push(chunk);
        });
        res.on("end", () => finish(200, isDujiaoAck(Buffer.concat(chunks).toString("utf8")) ? null : 'the answer was not {"ok":true}'));
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
