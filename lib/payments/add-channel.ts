import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { encryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { appError } from "../errors";
import { formatAmount } from "../protocol/amount";
import type { ChannelSettings } from "./channel-input";

/** Issue 36: an operator adds a payment channel (checked by ChannelInputSchema); its secrets are sealed at rest and never shown again. */
export async function addChannel({ input: c, actor }: { input: ChannelSettings; actor: Actor }) {
  return db().$transaction(async (tx) => {
    if (await tx.paymentChannel.findUnique({ where: { name: c.name }, select: { id: true } }))
      throw appError("conflict", `a channel named ${c.name} exists`);
    const row = await tx.paymentChannel.create({
      data: {
        name: c.name,
        driver: c.driver,
        gatewayUrl: c.gatewayUrl ?? null,
        merchantId: c.merchantId ?? null,
        keySealed: encryptText(c.key),
        webhookSecretSealed: c.webhookSecret ? encryptText(c.webhookSecret) : null,
        apiBase: c.apiBase ?? null,
        currency: c.currency,
        minCents: c.min,
        maxCents: c.max,
        expireMinutes: c.expireMinutes,
      },
    });
    await writeAuditLog(tx, {
      actor,
      action: "payment_channel.add",
      targetType: "payment_channel",
      targetId: String(row.id),
      details: {
        name: row.name,
        driver: row.driver,
        currency: row.currency,
        min: formatAmount(row.minCents),
        max: formatAmount(row.maxCents),
      },
    });
    return channelView(row);
  });
}

/** A channel as operators see it: never its secrets. */
export function channelView(row: {
  id: number;
  name: string;
  driver: string;
  gatewayUrl: string | null;
  merchantId: string | null;
  apiBase: string | null;
  currency: string;
  minCents: bigint;
  maxCents: bigint;
  expireMinutes: number;
  enabled: boolean;
  createdAt: Date;
}) {
  return {
    id: row.id,
    name: row.name,
    driver: row.driver,
    gateway_url: row.gatewayUrl,
    merchant_id: row.merchantId,
    api_base: row.apiBase,
    currency: row.currency,
    min: formatAmount(row.minCents),
    max: formatAmount(row.maxCents),
    expire_minutes: row.expireMinutes,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
  };
}
