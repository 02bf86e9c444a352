import http from "node:http";
import next from "next";
import type { TrustProxy } from "../config/trusted-proxies";
import { setClientAddress } from "../net/client-address";
import { earlyAnswer } from "../supplier-api/early-answer";
import { log } from "../log";
import { dispatchDirect } from "./direct-dispatch";
import { applyPageSecurityHeaders } from "./page-security-headers";
import { env } from "../config/env";

export interface HttpServerOptions {
  port: number;
  /** Listen address; undefined = every interface (as `next start`). */
  hostname?: string;
  trust: TrustProxy;
}

export interface RunningHttpServer {
  server: http.Server;
  /** Stops the Next app (its instrumentation, caches); the last step of the drain (lib/ops/drain.ts). */
  closeApp(): Promise<void>;
}

/**
 * The production HTTP server (issue 8.5): Next's request handler behind a
 * plain node:http server, so the socket's address is known and becomes the
 * client-address header before Next sees the request (App Router handlers
 * cannot see the socket). Returned rather than wired to signals: the entry
 * point (scripts/server.ts) owns them and drains through lib/ops/drain.ts.
 */
export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const app = next({ dev: false, dir: process.cwd(), hostname: opts.hostname ?? "localhost", port: opts.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const https = env().NEXTAUTH_URL?.toLowerCase().startsWith("https://") ?? false;
  const server = http.createServer((req, res) => {
    const early = earlyAnswer(req.url ?? "/");
    if (early) {
      res.writeHead(early.status, early.headers).end(early.body);
      return;
    }
    setClientAddress(req, opts.trust);
    if (dispatchedDirect(req, res)) return;
    applyPageSecurityHeaders(req, res, { https }); // issue 22.7: console and /docs
    handle(req, res).catch(() => {
      // Next renders its own errors; this only guards against a rejected handler leaving the socket open.
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // Keep idle connections longer than the load balancers in front usually do
  // (60 s), so a proxy or a client never sends on a socket we just closed
  // ("other side closed"); headersTimeout must exceed it (Node's rule).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.hostname, () => resolve());
  });
  return { server, closeApp: () => app.close() };
}

/**
 * dispatchDirect, but a throw leaves the request to Next rather than
 * unanswered (a throw in a request listener answers nothing): e.g. a build
 * older than this server's code registered routes in another shape.
 */
function dispatchedDirect(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  try {
    return dispatchDirect(req, res);
  } catch (err) {
    log.error({ err: (err as Error).message }, "direct dispatch refused a request; Next answers it");
    return false;
  }
}
