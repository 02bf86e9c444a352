import { db } from "../db/client";
import type { Paging } from "./paging";

export const BUYER_SORTS = ["createdAt", "email", "balanceCents"] as const;

/** One page of buyers, optionally filtered by an e-mail substring. */
export async function listBuyers({ paging, q }: { paging: Paging<(typeof BUYER_SORTS)[number]>; q?: string }) {
  const search = q?.trim().toLowerCase();
  const where = search ? { email: { contains: search } } : {};
  const [total, rows] = await Promise.all([
    db().user.count({ where }),
    db().user.findMany({
      where,
      orderBy: [{ [paging.sort]: paging.dir }, { id: "asc" }],
      skip: paging.skip,
      take: paging.take,
      select: {
        id: true,
        email: true,
        status: true,
        registrationPending: true,
        balanceCents: true,
        createdAt: true,
        memberLevel: { select: { name: true, slug: true } },
        _count: { select: { credentials: true } },
      },
    }),
  ]);
  return { total, rows };
}

/** A buyer with the latest ledger rows and their API keys (never the secrets). */
export async function getBuyer(id: string, ledgerTake = 50) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  return db().user.findUnique({
    where: { id },
    // Sign-in secrets stay out of the page's data.
    omit: { passwordHash: true, totpSecretCiphertext: true, recoveryCodeHashes: true, totpLastStep: true },
    include: {
      memberLevel: { select: { name: true, slug: true } },
      ledger: { orderBy: { id: "desc" }, take: ledgerTake, include: { order: { select: { orderNo: true } } } },
      credentials: {
        orderBy: { id: "desc" },
        select: { id: true, apiKey: true, name: true, isActive: true, lastUsedAt: true, createdAt: true, disabledAt: true },
      },
    },
  });
}
