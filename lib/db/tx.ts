import type { PrismaClient } from "../generated/prisma/client";

/** A Prisma transaction client: what services take when they must join a caller's transaction. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** Prisma's unique-constraint violation. In Prisma 7 `meta.target` is empty, so match on the code. */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === "P2002";
}
