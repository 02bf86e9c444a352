import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { ALERT_KIND_ALIASES, ALERT_KIND_NAMES, ALERT_KINDS, alertKindNamed, hasThreshold, isAlertKind } from "./event-kinds";
import { evaluateSkuStock, skusToEvaluate } from "./evaluate-sku-stock";

// Issue 25 (CLI alerts:rule:set, console): switch an event kind on or off for
// one channel, and/or set the kind's site-wide number (minutes, failures,
// stock, hour). The number is site-wide because the check that detects the
// state change runs once for the whole site (decision 0041).

export const RuleInputSchema = z
  .strictObject({
    event: z
      .string()
      .transform(alertKindNamed)
      .refine(isAlertKind, `event must be one of ${[...ALERT_KIND_NAMES, ...Object.keys(ALERT_KIND_ALIASES)].join(", ")}`),
    channelId: z.coerce.number().int().positive("channel must be a channel id").optional(),
    enabled: z.boolean().optional(),
    threshold: z.coerce.number().int("threshold must be a whole number").min(0).max(1_000_000).optional(),
  })
  .refine((r) => (r.channelId === undefined) === (r.enabled === undefined), "give --channel together with --on or --off")
  .refine((r) => r.enabled !== undefined || r.threshold !== undefined, "give --channel with --on/--off, or --threshold, or both");
export type RuleInput = z.input<typeof RuleInputSchema>;

export async function setAlertRule(input: RuleInput, { actor }: { actor: Actor }) {
  const parsed = RuleInputSchema.safeParse(input);
  if (!parsed.success) throw appError("bad_request", parsed.error.issues.map((i) => i.message).join("; "));
  const { event, channelId, enabled, threshold } = parsed.data;
  if (!isAlertKind(event)) throw appError("bad_request", "unknown event");
  if (threshold !== undefined && !hasThreshold(event)) throw appError("bad_request", `event ${event} has no threshold`);
  if (event === "daily_summary" && threshold !== undefined && threshold > 23)
    throw appError("bad_request", "daily_summary threshold is an hour from 0 to 23");
  return db().$transaction(
    async (tx) => {
      if (channelId !== undefined && enabled !== undefined) {
        const channel = await tx.alertChannel.findFirst({ where: { id: channelId, deletedAt: null }, select: { id: true } });
        if (!channel) throw appError("not_found", `no alert channel ${channelId}`);
        await tx.alertRule.upsert({
          where: { channelId_event: { channelId, event } },
          create: { channelId, event, enabled },
          update: { enabled },
        });
      }
      if (threshold !== undefined)
        await tx.alertThreshold.upsert({ where: { event }, create: { event, value: threshold }, update: { value: threshold } });
      // Issue 33.8: SKUs on the site-wide number are judged again under it now, as sku:threshold does for one.
      if (threshold !== undefined && event === "stock_low")
        for (const id of await skusToEvaluate(tx, threshold, Prisma.sql`k."alertStockThreshold" IS NULL`, 100_000))
          await evaluateSkuStock(tx, id, "threshold");
      await writeAuditLog(tx, {
        actor,
        action: "alert.rule.set",
        targetType: "alert_rule",
        targetId: event,
        details: { channelId: channelId ?? null, enabled: enabled ?? null, threshold: threshold ?? null },
      });
      const rule = channelId === undefined ? null : await tx.alertRule.findUnique({ where: { channelId_event: { channelId, event } } });
      const value = hasThreshold(event)
        ? ((await tx.alertThreshold.findUnique({ where: { event } }))?.value ?? ALERT_KINDS[event].threshold.default)
        : null;
      return { event, channel_id: channelId ?? null, enabled: rule?.enabled ?? null, threshold: value };
    },
    { timeout: 120_000 },
  ); // a new stock_low number may judge many SKUs again
}
