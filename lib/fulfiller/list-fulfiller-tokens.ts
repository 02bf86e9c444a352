import { db } from "../db/client";

/** Issue 39: the fulfiller tokens, newest first, for the CLI and the console: never a token or a secret. */
export async function listFulfillerTokens() {
  const rows = await db().fulfillerToken.findMany({
    orderBy: { id: "desc" },
    select: {
      id: true,
      name: true,
      productIds: true,
      webhookUrl: true,
      createdAt: true,
      revokedAt: true,
      _count: { select: { leases: true } },
    },
  });
  return rows.map(({ _count, ...r }) => ({ ...r, leases: _count.leases }));
}
