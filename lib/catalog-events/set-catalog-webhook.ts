import { assertCallbackUrlAllowed, systemResolver, type Resolver } from "../callbacks/address-policy";
import { db } from "../db/client";

// Issue 12.2: a downstream registers one catalogue webhook per API key
// (docs/decisions/0022-catalogue-events.md). The URL passes exactly the D29
// check an order's callback_url passes, here and again at every connect.

/**
 * Registers or replaces the key's webhook. A new webhook starts at the
 * catalogue clock (it hears of changes from now on); a replaced one keeps its
 * cursor (no change is lost by moving the receiver), and its events still
 * waiting for delivery go to the new URL. Returns the stored URL.
 */
export async function setCatalogWebhook(input: { credentialId: number; url: string; resolve?: Resolver }): Promise<{ url: string }> {
  await assertCallbackUrlAllowed(input.url, input.resolve ?? systemResolver, "url");
  await db().$transaction(async (tx) => {
    await tx.$executeRaw`
      INSERT INTO "CatalogWebhook" ("credentialId", "url", "cursor", "updatedAt")
      SELECT ${input.credentialId}, ${input.url}, "stamp", now() AT TIME ZONE 'UTC' FROM "CatalogClock" WHERE "id" = 1
      ON CONFLICT ("credentialId") DO UPDATE SET "url" = EXCLUDED."url", "updatedAt" = EXCLUDED."updatedAt"`;
    await tx.catalogEvent.updateMany({ where: { credentialId: input.credentialId, status: "pending" }, data: { url: input.url } });
  });
  return { url: input.url };
}
