import { db } from "../db/client";
import { assertApprovedBuyer } from "../buyer-access/approved-buyer";

/**
 * Issue 24.2: the buyer's API keys (never a secret: the portal shows a secret
 * once, when made), each with its last use, a rotation's overlap, and its
 * catalogue webhook with the recent deliveries. Scoped to `userId`.
 */
export async function listBuyerKeys({ userId }: { userId: string }) {
  await assertApprovedBuyer(userId); // issue 33.3
  const keys = await db().apiCredential.findMany({
    where: { userId },
    orderBy: { id: "desc" },
    select: {
      id: true,
      apiKey: true,
      name: true,
      isActive: true,
      lastUsedAt: true,
      createdAt: true,
      disabledAt: true,
      previousSecretUntil: true,
      catalogWebhook: { select: { url: true, lastEventAt: true } },
      catalogEvents: {
        orderBy: { id: "desc" },
        take: 5,
        select: { id: true, status: true, attemptCount: true, lastError: true, productCount: true, createdAt: true, deliveredAt: true },
      },
    },
  });
  const now = Date.now();
  return keys.map((k) => ({
    ...k,
    previousSecretUntil: k.previousSecretUntil && k.previousSecretUntil.getTime() > now ? k.previousSecretUntil : null,
  }));
}
