import type http from "node:http";

/**
 * How our HTTP server (lib/ops/http-server.ts) reaches the router that Next's
 * bundle built: instrumentation.ts publishes the one object once per start
 * (./router.ts `publishRouter`). The server must call the bundle's own copy,
 * not import the router itself: its modules would be a second set of
 * instances (another database pool, catalogue cache, metrics registry, and
 * an AppError class the bundle's pipeline does not recognise). Decision 0036.
 * This file imports nothing, so the server loads no endpoint code of its own.
 */
export interface NodeRouter {
  /** Answers a request under the four prefixes and returns true; false leaves it to Next. */
  serveNode(req: http.IncomingMessage, res: http.ServerResponse): boolean;
}

const SLOT = Symbol.for("cardkey.supplierApiRouter");
const slot = globalThis as unknown as { [SLOT]?: NodeRouter };

export function setPublishedRouter(router: NodeRouter): void {
  slot[SLOT] = router;
}

/** The router Next's bundle published, or undefined before instrumentation ran (or without a database). */
export function publishedRouter(): NodeRouter | undefined {
  return slot[SLOT];
}
