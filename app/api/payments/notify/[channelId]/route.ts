import { appError } from "@/lib/errors";
import { log } from "@/lib/log";
import { readCapped } from "@/lib/net/read-capped";
import { receiveNotify } from "@/lib/payments/receive-notify";
import { isInt4IdText } from "@/lib/protocol/ids";

export const dynamic = "force-dynamic";

// Issue 36: a payment gateway's notify (lib/payments/receive-notify.ts).
// GET (epay), form POST (epay) and JSON POST (TokenPay, epusdt, Stripe); the
// body is read raw, at most 64 KiB in 10 s, because Stripe signs its exact
// bytes. The browser's return URL is a portal page and never comes here.

const MAX_NOTIFY_BYTES = 64 * 1024;

async function handle(req: Request, ctx: { params: Promise<{ channelId: string }> }): Promise<Response> {
  const text = (status: number, body: string) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
  try {
    const { channelId } = await ctx.params;
    if (!isInt4IdText(channelId)) return text(404, "unknown channel");
    const rawBody =
      req.method === "GET"
        ? Buffer.alloc(0)
        : await readCapped(req.body, {
            declaredLength: req.headers.get("content-length"),
            limit: MAX_NOTIFY_BYTES,
            tooLarge: () => appError("request_too_large", "notify body too large"),
            deadline: { timeoutMs: 10_000, timedOut: () => appError("request_timeout", "notify body too slow") },
          });
    const answer = await receiveNotify(Number(channelId), {
      method: req.method,
      query: new URL(req.url).searchParams,
      headers: req.headers,
      rawBody,
    });
    return text(answer.status, answer.body);
  } catch (err) {
    const status = err instanceof Error && "status" in err && typeof err.status === "number" && err.status < 500 ? err.status : 500;
    if (status === 500)
      log.error({ component: "payments", err: err instanceof Error ? err.message : String(err) }, "payment notify failed");
    // Not the success word: the gateway sends the notify again.
    return text(status === 500 ? 503 : status, "retry");
  }
}

export const GET = handle;
export const POST = handle;
