import { db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { log } from "../log";
import { applyReport, type ReportOutcome } from "./apply-report";
import { driverFor } from "./drivers";
import { NotifyRefusedError, type NotifyRequest } from "./drivers/driver";
import { gatewayChannel } from "./gateway-channel";

// Issue 36: a gateway's notify, from its arrival to the word it expects. The
// driver checks the signature and merchant; apply-report.ts checks the rest
// and credits once. The success word goes out only after the commit; every
// notify is kept (secrets redacted) for the operator's payment page.

export interface NotifyAnswer {
  status: number;
  body: string;
}

/** Keys whose values are signatures or secrets: never stored. */
const SECRET_KEY = /sign|secret|key|token|password/i;

/** The notify's fields as stored: a flat form, or the JSON object, without signatures and secrets, strings capped. */
export function redactedFields(request: NotifyRequest): Prisma.InputJsonObject {
  // PostgreSQL's jsonb takes no NUL character: a hostile notify must not turn its own record into an error.
  const clean = (text: string, max: number) => text.replaceAll("\u0000", "\uFFFD").slice(0, max);
  const redact = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") return clean(value, 200);
    if (typeof value !== "object" || value === null) return value;
    if (depth > 3) return "…";
    if (Array.isArray(value)) return value.slice(0, 10).map((v) => redact(v, depth + 1));
    return Object.fromEntries(
      Object.entries(value)
        .slice(0, 60)
        .map(([k, v]) => [clean(k, 60), SECRET_KEY.test(k) ? "[redacted]" : redact(v, depth + 1)]),
    );
  };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of request.query) fields[k] = v;
  const text = request.rawBody.toString("utf8");
  if (text) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) Object.assign(fields, parsed);
      else fields.body = text;
    } catch {
      for (const [k, v] of new URLSearchParams(text)) fields[k] = v;
    }
  }
  return redact(fields, 0) as Prisma.InputJsonObject;
}

const outcomeText = (o: ReportOutcome | { kind: "refused"; why: string }) =>
  o.kind === "refused" ? `refused: ${o.why}` : o.kind === "review" ? `review: ${o.reason}` : o.kind;

export async function receiveNotify(channelId: number, request: NotifyRequest): Promise<NotifyAnswer> {
  const channel = await db().paymentChannel.findUnique({ where: { id: channelId } });
  if (!channel) return { status: 404, body: "unknown channel" };
  const driver = driverFor(channel.driver);
  const record = (outcome: string, paymentId: number | null) =>
    db().paymentNotify.create({
      data: {
        channelId,
        paymentId,
        method: request.method.slice(0, 10),
        fields: redactedFields(request),
        outcome: outcome.slice(0, 300),
      },
    });
  let report;
  try {
    report = driver.verify(gatewayChannel(channel), request);
  } catch (err) {
    const why = err instanceof NotifyRefusedError ? err.why : "unreadable notify";
    await record(`refused: ${why}`, null);
    log.warn({ component: "payments", channel: channelId, why }, "payment notify refused");
    return { status: 400, body: "refused" };
  }
  const { outcome, paymentId } = await applyReport({ channelId, report, source: "notify" });
  await record(outcomeText(outcome), paymentId);
  if (outcome.kind !== "credited" && outcome.kind !== "duplicate")
    log.info(
      { component: "payments", channel: channelId, paymentNo: report.paymentNo.slice(0, 64), outcome: outcome.kind },
      "payment notify",
    );
  switch (outcome.kind) {
    case "credited":
    case "duplicate":
    case "review":
      return { status: 200, body: driver.successReply };
    case "not_ready":
      // Not the success word: the gateway keeps the notify and sends it again.
      return { status: 503, body: "retry" };
    case "not_paid":
    case "refused":
      return { status: 400, body: "refused" };
  }
}
