import { z } from "zod";
import { readCapped } from "../../net/read-capped";
import { resolvingAgent } from "../../net/resolving-agent";
import { GatewayError } from "./driver";
import { quoteJsonNumbers } from "./signing";

// Outgoing requests to a gateway (epay, TokenPay, epusdt; Stripe has its own
// client). Error messages name what was asked and the HTTP status, never the
// URL (epay's query carries the merchant key in it) nor what the gateway wrote.

export const GATEWAY_TIMEOUT_MS = 10_000;
/** A gateway answers a few hundred bytes; more than this is not read. */
export const MAX_GATEWAY_ANSWER_BYTES = 256 * 1024;

/** A number or a string, as text: gateways send either for the same field. */
export const looseText = z.union([z.string(), z.number(), z.bigint()]).transform((v) => String(v));

/**
 * Calls the gateway and answers its JSON, every number kept as its text (see
 * quoteJsonNumbers). `what` names the call in errors. A redirect, a status
 * other than 2xx, a body over the cap or anything not JSON is a GatewayError.
 */
export async function callGateway(url: string, what: string, json?: unknown): Promise<unknown> {
  let res: Response;
  try {
    // A redirect is not followed: it could lead anywhere. The host name is resolved off the thread pool.
    res = await fetch(url, {
      method: json === undefined ? "GET" : "POST",
      headers: json === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
      body: json === undefined ? undefined : JSON.stringify(json),
      redirect: "manual",
      signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
      dispatcher: resolvingAgent(),
    } as RequestInit);
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    const why =
      e?.name === "TimeoutError" ? `no answer within ${GATEWAY_TIMEOUT_MS} ms` : `connection failed: ${e?.cause?.code ?? e?.name}`;
    throw new GatewayError(`${what}: ${why}`);
  }
  if (res.status < 200 || res.status > 299) {
    await res.body?.cancel().catch(() => undefined);
    throw new GatewayError(`${what}: HTTP ${res.status}`);
  }
  let text: string;
  try {
    const bytes = await readCapped(res.body, {
      declaredLength: res.headers.get("content-length"),
      limit: MAX_GATEWAY_ANSWER_BYTES,
      tooLarge: () => new GatewayError(`${what}: answer larger than ${MAX_GATEWAY_ANSWER_BYTES} bytes`),
      deadline: {
        timeoutMs: GATEWAY_TIMEOUT_MS,
        timedOut: () => new GatewayError(`${what}: answer not read within ${GATEWAY_TIMEOUT_MS} ms`),
      },
    });
    text = bytes.toString("utf8");
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    throw new GatewayError(`${what}: the answer could not be read`);
  }
  try {
    return JSON.parse(quoteJsonNumbers(text)) as unknown;
  } catch {
    throw new GatewayError(`${what}: the answer is not JSON (HTTP ${res.status})`);
  }
}

/** The answer read by `schema`, or a GatewayError naming the first field that is wrong. */
export function readAnswer<T>(schema: z.ZodType<T>, answer: unknown, what: string): T {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new GatewayError(`${what}: unexpected answer (${issue?.path.join(".") || "body"}: ${issue?.code})`);
}
