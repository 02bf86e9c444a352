import { db } from "../db/client";
import type { CatalogEventStatus } from "../generated/prisma/enums";

/**
 * Catalogue events for the administrator (issue 12.2), beside the order
 * callbacks: newest first, plain JSON-able objects. The body is left out (it
 * can be 500 products long); the product count says how big it is. Status
 * `cancelled`: its key or buyer was disabled before delivery (issue 22.9).
 */
export async function listCatalogEvents(opts: { status?: CatalogEventStatus; credentialId?: number; limit?: number } = {}) {
  const rows = await db().catalogEvent.findMany({
    where: { status: opts.status, credentialId: opts.credentialId },
    orderBy: { id: "desc" },
    take: Math.min(Math.max(opts.limit ?? 100, 1), 1000),
    select: {
      id: true,
      url: true,
      status: true,
      attemptCount: true,
      lastError: true,
      productCount: true,
      nextAttemptAt: true,
      deliveredAt: true,
      createdAt: true,
      credential: { select: { apiKey: true } },
    },
  });
  return rows.map((e) => ({
    id: e.id,
    apiKey: e.credential.apiKey,
    url: e.url,
    products: e.productCount,
    status: e.status,
    attempts: e.attemptCount,
    lastError: e.lastError,
    nextAttemptAt: e.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: e.deliveredAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
  }));
}
