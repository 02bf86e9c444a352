import { db } from "../db/client";
import type { Paging } from "./paging";

export const API_KEY_SORTS = ["createdAt", "lastUsedAt"] as const;

/** One page of API keys with their owner and catalogue webhook (issue 12.2). The secret column is never selected. */
export async function listApiKeys({ paging, q }: { paging: Paging<(typeof API_KEY_SORTS)[number]>; q?: string }) {
  const search = q?.trim();
  const where = search ? { OR: [{ apiKey: { startsWith: search } }, { user: { email: { contains: search.toLowerCase() } } }] } : {};
  const [total, rows] = await Promise.all([
    db().apiCredential.count({ where }),
    db().apiCredential.findMany({
      where,
      // nulls only on a nullable column (Prisma refuses it on createdAt).
      orderBy: [
        paging.sort === "lastUsedAt" ? { lastUsedAt: { sort: paging.dir, nulls: "last" } } : { createdAt: paging.dir },
        { id: "desc" },
      ],
      skip: paging.skip,
      take: paging.take,
      select: {
        id: true,
        apiKey: true,
        name: true,
        isActive: true,
        acgEnabled: true,
        lastUsedAt: true,
        createdAt: true,
        user: { select: { id: true, email: true } },
        catalogWebhook: { select: { url: true } },
      },
    }),
  ]);
  return { total, rows };
}
