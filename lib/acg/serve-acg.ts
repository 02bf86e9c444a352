import { AppError } from "../errors";
import { log } from "../log";
import { clientIp } from "../net/client-address";
import { arrivedSecurely } from "../net/client-secure";
import { declaredOver, readCapped } from "../net/read-capped";
import { getCachedSettings } from "../settings/get-cached-settings";
import { countAuthFailure, refuseIfFailingTooOften } from "../supplier-api/auth-failures";
import { consumeRateLimit } from "../supplier-api/rate-limit";
import { ACG_ENDPOINTS } from "./acg-endpoints";
import { AUTH_FAILED, authenticateAcg } from "./authenticate-acg";
import { FormError, parseForm } from "./php-form";
import { AcgRefusal, refuse } from "./refusal";

// Issue 37.2, decision 0091: the /acg edge. Every call is a form POST under
// /acg/shared/…, answered HTTP 200 {"code":200,"msg":"success","data":…} or
// {"code":0,"msg":"…"} as their server answers (Base/API/Shared.php lines
// 22-28, kernel/Kernel.php lines 186-188); an unknown path is their plain
// 404 page. In this order: HTTPS, a form body of at most 64 KiB, the address's
// failed authentications, app_id and signature, the key's own rate limit.

const MAX_BODY_BYTES = 64 * 1024;
const PREFIX = "/acg/shared/";

export interface AcgAnswer {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

export async function serveAcg(req: Request): Promise<AcgAnswer> {
  const path = new URL(req.url).pathname;
  const name = path.startsWith(PREFIX) ? path.slice(PREFIX.length).toLowerCase() : "";
  const handler = Object.hasOwn(ACG_ENDPOINTS, name) ? ACG_ENDPOINTS[name] : undefined;
  if (!handler) return { status: 404, contentType: "text/html; charset=utf-8", body: "404 Not Found" };
  const address = clientIp(req.headers);
  try {
    if (!arrivedSecurely(req.headers)) throw refuse("HTTPS required (请使用 HTTPS 地址)");
    if (req.method !== "POST") throw refuse("POST a form (请使用 POST 表单)");
    const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") throw refuse("the body must be a form (application/x-www-form-urlencoded)");
    if (declaredOver(req.headers.get("content-length"), MAX_BODY_BYTES)) return tooLarge();
    const raw = await readCapped(req.body, {
      declaredLength: req.headers.get("content-length"),
      limit: MAX_BODY_BYTES,
      tooLarge: () => refuse("body too large"),
      deadline: { timeoutMs: 15_000, timedOut: () => refuse("the body did not arrive in time") },
    });
    const fields = parseForm(raw.toString("latin1"));
    refuseIfFailingTooOften(address);
    const credential = await authenticateAcg(fields).catch((err: unknown) => {
      if (err instanceof AcgRefusal && err.message === AUTH_FAILED) countAuthFailure(address);
      throw err;
    });
    await consumeRateLimit("acg", String(credential.id), (await getCachedSettings()).rateLimitPerKey);
    return json({ code: 200, msg: "success", data: await handler(credential, fields) });
  } catch (err) {
    return refusalAnswer(err);
  }
}

function json(value: unknown, headers?: Record<string, string>): AcgAnswer {
  return { status: 200, contentType: "application/json; charset=utf-8", body: JSON.stringify(value), headers };
}

const tooLarge = (): AcgAnswer => json({ code: 0, msg: "body too large" }, { Connection: "close" });

/** Our services' refusals in their envelope; anything unexpected is logged (never the body) and answered as a failure. */
function refusalAnswer(err: unknown): AcgAnswer {
  if (err instanceof AcgRefusal)
    return json({ code: 0, msg: err.message }, err.message === "body too large" ? { Connection: "close" } : undefined);
  if (err instanceof FormError) return json({ code: 0, msg: `unreadable form: ${err.message}` });
  if (err instanceof AppError) return json({ code: 0, msg: MESSAGES[err.code] ?? err.publicMessage }, err.headers);
  log.error({ component: "acg", err: err instanceof Error ? err.message : String(err) }, "acg request failed");
  return json({ code: 0, msg: "internal error, retry later (系统错误)" });
}

/** Their operators read Chinese; the English stays for ours. */
const MESSAGES: Record<string, string> = {
  insufficient_stock: "insufficient stock (库存不足)",
  insufficient_balance: "insufficient balance (余额不足)",
  sku_unavailable: "item not on sale (当前商品已停售)",
  product_unavailable: "item not on sale (当前商品已停售)",
  idempotency_conflict: "request_no already used for another item or quantity (订单号已用于其他商品或数量)",
  rate_limited: "too many requests, retry later (请求过于频繁)",
  request_timeout: "the body did not arrive in time",
};
