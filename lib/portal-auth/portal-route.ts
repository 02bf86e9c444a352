import type { z } from "zod";
import { csvCell } from "../admin-views/export-orders-csv";
import { AlreadyDoneError } from "../audit/consume-once-token";
import { AppError } from "../errors";
import { log } from "../log";
import { clientIp } from "../net/client-address";
import { findLiveBuyer, PORTAL_SESSION_COOKIE } from "./buyer-session";
import type { BuyerSession } from "./require-buyer";
import { PENDING_MESSAGE } from "../buyer-access/approved-buyer";
import { formIssues } from "../admin-auth/form-issues";
import { getI18n } from "../i18n/server";

// The frame of every portal route handler (actions and exports), as
// runAdminAction is for the console: same-origin check, the buyer's session
// (the portal's own cookie only), input through zod, then the service, which
// scopes every row to the buyer. Another buyer's id and a missing one answer
// the same 404 (issue 24.3). Answers are JSON; nothing a client sends makes a 500.
// An account waiting for approval passes only where a route says so (issue
// 33.3: its own account), and a download that reveals card keys only as a
// POST proven to come from our own pages (issue 33.5).

type Params = Record<string, string | string[] | undefined>;
type Ctx = { params: Promise<Params> };

/** "allowed": the route serves an account still waiting for approval (its sessions, its two-factor); default refused. */
export interface PortalRouteOptions {
  pending?: "allowed" | "refused";
}

const MAX_BODY_BYTES = 16 * 1024;

const json = (status: number, body: object) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });

export function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

/** A state-changing request must come from our own pages: Origin (when sent) names this host, and the browser did not mark it cross-site. */
export function sameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  const host = req.headers.get("host");
  if (origin && origin !== "null") {
    try {
      if (new URL(origin).host !== host) return false;
    } catch {
      return false;
    }
  } else if (origin === "null") return false;
  const site = req.headers.get("sec-fetch-site");
  return !site || site === "same-origin" || site === "none";
}

/**
 * Issue 33.5: stricter than sameOrigin for what reveals card keys: the browser
 * must SAY the request is ours (Sec-Fetch-Site same-origin or none, or else an
 * Origin naming this host). A request that says nothing is refused, since an
 * older browser that sends neither header could be led there by another site.
 */
export function provenSameOrigin(req: Request): boolean {
  return sameOrigin(req) && (req.headers.has("sec-fetch-site") || !!req.headers.get("origin"));
}

export async function buyerOf(req: Request): Promise<BuyerSession | null> {
  const live = await findLiveBuyer(cookieValue(req, PORTAL_SESSION_COOKIE));
  return live ? { ...live, ip: clientIp(req.headers) } : null;
}

const pendingRefusal = () => json(403, { ok: false, code: "account_pending", message: PENDING_MESSAGE });

function failure(err: unknown, buyer: BuyerSession | null): Response {
  if (err instanceof AlreadyDoneError) return json(200, { ok: true, message: "already done" });
  if (err instanceof AppError)
    return json(err.status === 500 ? 400 : err.status, { ok: false, code: err.code, message: err.publicMessage });
  log.error({ err: err instanceof Error ? err.message : String(err), userId: buyer?.userId }, "portal action failed");
  return json(500, { ok: false, code: "internal_error", message: "internal error" });
}

/** A POST action with a JSON body checked by `schema`; `work` gets the buyer and the route's params. */
export function portalAction<S extends z.ZodType>(
  schema: S,
  work: (input: z.output<S>, ctx: { buyer: BuyerSession; params: Params }) => Promise<object>,
  { pending = "refused" }: PortalRouteOptions = {},
) {
  return async (req: Request, ctx: Ctx): Promise<Response> => {
    if (!sameOrigin(req)) return json(403, { ok: false, code: "forbidden", message: "cross-site request refused" });
    // A JSON content type cannot be sent cross-site without a CORS preflight, which we never grant.
    if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json"))
      return json(415, { ok: false, code: "bad_request", message: "send application/json" });
    const buyer = await buyerOf(req);
    if (!buyer) return json(401, { ok: false, code: "unauthorized", message: "sign in again" });
    if (buyer.registrationPending && pending !== "allowed") return pendingRefusal();
    let raw: unknown;
    try {
      const text = await req.text();
      if (Buffer.byteLength(text) > MAX_BODY_BYTES)
        return json(413, { ok: false, code: "request_too_large", message: "request too large" });
      raw = text ? JSON.parse(text) : {};
    } catch {
      return json(400, { ok: false, code: "invalid_json", message: "the body is not JSON" });
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success)
      return json(400, {
        ok: false,
        code: "bad_request",
        message: parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "),
        // The form shows these: one sentence per field in the page's language, after the field's label (issue 35.2).
        issues: formIssues(parsed.error, (await getI18n()).t),
      });
    try {
      return json(200, { ok: true, ...(await work(parsed.data, { buyer, params: await ctx.params })) });
    } catch (err) {
      return failure(err, buyer);
    }
  };
}

/** A GET read answering JSON (a payment's state, polled by its page): signed out → 401; an account waiting for approval is refused. */
export function portalRead(work: (ctx: { buyer: BuyerSession; params: Params }) => Promise<object>) {
  return async (req: Request, ctx: Ctx): Promise<Response> => {
    const buyer = await buyerOf(req);
    if (!buyer) return json(401, { ok: false, code: "unauthorized", message: "sign in again" });
    if (buyer.registrationPending) return pendingRefusal();
    try {
      return json(200, { ok: true, ...(await work({ buyer, params: await ctx.params })) });
    } catch (err) {
      return failure(err, buyer);
    }
  };
}

type ExportWork = (req: Request, ctx: { buyer: BuyerSession; params: Params }) => Promise<Response>;

/** A GET export (CSV): signed out → the sign-in page; an account waiting for approval is refused; `work` answers the file. */
export function portalExport(work: ExportWork) {
  return async (req: Request, ctx: Ctx): Promise<Response> => {
    const buyer = await buyerOf(req);
    if (!buyer) return new Response(null, { status: 303, headers: { Location: "/portal/sign-in" } });
    if (buyer.registrationPending) return pendingRefusal();
    try {
      return await work(req, { buyer, params: await ctx.params });
    } catch (err) {
      return failure(err, buyer);
    }
  };
}

/**
 * Issue 33.5: an export that reveals card keys is the buyer's own act: a POST
 * (a plain form on our page; the Lax cookie never rides another site's POST)
 * proven same-origin, checked before the session is even read, so a refused
 * request decrypts and audits nothing.
 */
export function portalKeyExport(work: ExportWork) {
  const exported = portalExport(work);
  return async (req: Request, ctx: Ctx): Promise<Response> => {
    if (req.method !== "POST" || !provenSameOrigin(req))
      return json(403, { ok: false, code: "forbidden", message: "card keys are exported only by the button on the orders page" });
    return exported(req, ctx);
  };
}

/** A CSV file download: UTF-8 with a BOM (Excel reads Chinese text), cells by the console's CSV-injection rule, never cached. */
export function csvResponse(name: string, rows: (string | number | null)[][]): Response {
  const body = "\uFEFF" + rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}
