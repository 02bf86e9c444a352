import http from "node:http";
import type net from "node:net";
import next from "next";
import type { TrustProxy } from "../config/trusted-proxies";
import { setClientAddress } from "../net/client-address";
import { isDecodablePath } from "../net/decodable-path";
import { setClientSecure } from "../net/client-secure";
import { publishedRouter } from "../supplier-api/published-router";
import { log } from "../log";
import { applyPageSecurityHeaders } from "./page-security-headers";
import { env } from "../config/env";
import { isStopping } from "./stop-state";

export interface HttpServerOptions {
  port: number;
  /** Listen address; undefined = every interface (as `next start`). */
  hostname?: string;
  trust: TrustProxy;
  /** MAX_CONNECTIONS_PER_ADDRESS (issue 22.2). */
  maxConnectionsPerAddress: number;
}

export interface RunningHttpServer {
  server: http.Server;
  /** Stops the Next app (its instrumentation, caches); the last step of the drain (lib/ops/drain.ts). */
  closeApp(): Promise<void>;
}

/**
 * The production HTTP server (issue 8.5): Next's request handler behind a
 * plain node:http server, so the socket's address is known and becomes the
 * client-address header before anything answers (App Router handlers cannot
 * see the socket). The supplier API's requests go to its router without
 * Next's (decisions 0023, 0036). Returned rather than wired to signals: the
 * entry point (scripts/server.ts) owns them and drains through lib/ops/drain.ts.
 */
export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const app = next({ dev: false, dir: process.cwd(), hostname: opts.hostname ?? "localhost", port: opts.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const https = env().NEXTAUTH_URL?.toLowerCase().startsWith("https://") ?? false;
  const server = http.createServer(TIMEOUTS, (req, res) => {
    // Issue 27.3: once stopping, every answer ends its connection, so clients
    // holding keep-alive sockets reconnect (to another instance) before the port closes.
    if (isStopping()) res.setHeader("Connection", "close");
    setClientAddress(req, opts.trust);
    setClientSecure(req, opts.trust); // issue 37.2: /acg serves HTTPS (or loopback) only
    if (servedByRouter(req, res)) return;
    // Issue 8.2: Next answers a path with broken percent-encoding with a bare 500.
    if (!isDecodablePath(req.url ?? "/")) {
      res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" }).end("Bad Request");
      return;
    }
    applyPageSecurityHeaders(req, res, { https }); // issue 22.7: console and /docs
    handle(req, res).catch(() => {
      // Next renders its own errors; this only guards against a rejected handler leaving the socket open.
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  limitConnectionsPerAddress(server, opts);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.hostname, () => resolve());
  });
  return { server, closeApp: () => app.close() };
}

/**
 * Issue 22.2, decision 0028: Node's defaults (a whole request may take 300 s,
 * timeouts checked every 30 s) let a slow client hold a socket for minutes.
 * Headers must arrive within 10 s and a whole request within 60 s (the
 * supplier API allows its body 15 s, lib/supplier-api/endpoint-request.ts), checked
 * every second. Idle connections stay longer than the load balancers in front
 * usually keep theirs (60 s), so a proxy never sends on a socket we just
 * closed ("other side closed"); since Node 18 the headers timeout no longer
 * runs while a connection is idle, so it may be the shorter one.
 */
const TIMEOUTS: http.ServerOptions = {
  headersTimeout: 10_000,
  requestTimeout: 60_000,
  keepAliveTimeout: 65_000,
  connectionsCheckingInterval: 1_000,
};

/**
 * Issue 22.2: at most `maxConnectionsPerAddress` open connections per peer
 * address; more are closed as they are accepted, before a byte is read.
 * Per socket, not per client address (0012): no request has been read yet. A
 * trusted proxy is not counted: all its clients share its address.
 */
function limitConnectionsPerAddress(server: http.Server, opts: HttpServerOptions): void {
  const open = new Map<string, number>();
  server.on("connection", (socket: net.Socket) => {
    const peer = socket.remoteAddress;
    if (peer === undefined || opts.trust(peer, 0)) return;
    const address = peer.startsWith("::ffff:") ? peer.slice(7) : peer; // IPv4-mapped: one client, one count
    const count = (open.get(address) ?? 0) + 1;
    if (count > opts.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * The supplier API's router, as Next's bundle published it (instrumentation.ts);
 * without one, or if it throws, the request goes to Next, whose catch-all route
 * calls the same router (a throw in a request listener would answer nothing).
 */
function servedByRouter(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  try {
    return publishedRouter()?.serveNode(req, res) ?? false;
  } catch (err) {
    log.error({ err: (err as Error).message }, "supplier api router refused a request; Next answers it");
    return false;
  }
}
