import type { Actor } from "../audit/actor";
import { resetTotp } from "../admin-auth/manage-totp";
import { getUserByEmail } from "./get-user-by-email";

/**
 * Issue 24.1: an operator turns a buyer's two-factor off (the phone and the
 * recovery codes are lost), through the console's rule (manage-totp.ts).
 * The buyer's password still guards the account. Idempotent.
 */
export async function resetBuyerTwoFactor({ email, actor }: { email: string; actor: Actor }) {
  const user = await getUserByEmail(email);
  const wasOn = await resetTotp({ account: { kind: "buyer", id: user.id }, email: user.email, actor });
  return { id: user.id, email: user.email, two_factor: false, was_on: wasOn };
}
