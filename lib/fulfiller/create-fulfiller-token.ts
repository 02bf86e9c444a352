import crypto from "node:crypto";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { assertCallbackUrlAllowed } from "../callbacks/address-policy";
import { encryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { appError } from "../errors";
import { FulfillerTokenInputSchema, type FulfillerTokenInput } from "./fulfiller-input";
import { hashFulfillerToken, newFulfillerToken } from "./fulfiller-token";

/**
 * Issue 39: a token for an operator's own fulfiller script, scoped to some
 * manual products (all when none are named), with an optional webhook that
 * is told of each order that starts waiting. The token and the webhook
 * secret are returned once: only the token's hash and the sealed secret are
 * kept. A product that is not manual is refused (the token could never see it).
 */
export async function createFulfillerToken(input: FulfillerTokenInput, opts: { actor: Actor }) {
  const checked = FulfillerTokenInputSchema.safeParse(input);
  if (!checked.success) throw appError("bad_request", checked.error.issues[0].message);
  const { name, webhookUrl } = checked.data;
  const productIds = [...new Set(checked.data.productIds)].sort((a, b) => a - b);
  if (webhookUrl) await assertCallbackUrlAllowed(webhookUrl, undefined, "webhook_url");
  const token = newFulfillerToken();
  const webhookSecret = webhookUrl ? crypto.randomBytes(32).toString("hex") : undefined;
  return db().$transaction(async (tx) => {
    if (productIds.length) {
      const manual = await tx.product.count({ where: { id: { in: productIds }, fulfillmentType: "manual", deletedAt: null } });
      if (manual !== productIds.length) throw appError("bad_request", "every product id must name a manual product");
    }
    if (await tx.fulfillerToken.findUnique({ where: { name }, select: { id: true } }))
      throw appError("conflict", `a fulfiller token named ${name} exists`);
    const row = await tx.fulfillerToken.create({
      data: {
        name,
        tokenHash: hashFulfillerToken(token),
        productIds,
        webhookUrl: webhookUrl ?? null,
        webhookSecretCiphertext: webhookSecret ? encryptText(webhookSecret) : null,
      },
      select: { id: true },
    });
    await writeAuditLog(tx, {
      actor: opts.actor,
      action: "fulfiller.create",
      targetType: "fulfiller",
      targetId: name,
      details: { id: row.id, productIds, webhook: webhookUrl !== undefined },
    });
    return { id: row.id, name, token, ...(webhookSecret ? { webhook_secret: webhookSecret } : {}) };
  });
}
