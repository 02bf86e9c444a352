import { db } from "../db/client";
import { toLanguageText, type LanguageText } from "../protocol/language";

export interface Account {
  userId: string;
  balanceCents: bigint;
  /** Issue 38: how far below zero orders may take the balance (0: no credit). */
  creditLimitCents: bigint;
  memberLevel: { id: number; slug: string; name: LanguageText };
}

/** The buyer behind an API key: balance and member level (section 2.1, D16). Always read live. */
export async function getAccount(userId: string): Promise<Account> {
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    select: { id: true, balanceCents: true, creditLimitCents: true, memberLevel: { select: { id: true, slug: true, name: true } } },
  });
  return {
    userId: user.id,
    balanceCents: user.balanceCents,
    creditLimitCents: user.creditLimitCents,
    memberLevel: { id: user.memberLevel.id, slug: user.memberLevel.slug, name: toLanguageText(user.memberLevel.name) },
  };
}
