import { buyerTotpOwner } from "@/lib/admin-auth/manage-totp";
import { portalAction } from "@/lib/portal-auth/portal-route";
import { changeBuyerPassword, ChangeBuyerPasswordSchema } from "@/lib/users/change-buyer-password";

export const dynamic = "force-dynamic";

/** POST /portal/api/password {password, newPassword, confirm}: the signed-in buyer's new password; other sessions end (issue 35.4). */
export const POST = portalAction(
  ChangeBuyerPasswordSchema,
  async (input, { buyer }) => {
    await changeBuyerPassword(buyerTotpOwner(buyer), input);
    return {};
  },
  { pending: "allowed" }, // issue 33.3: the account page works while the account waits
);
