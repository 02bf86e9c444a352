import { EnableTotpSchema } from "@/lib/admin-auth/confirm-own-password";
import { buyerTotpOwner, enableTotp } from "@/lib/admin-auth/manage-totp";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/**
 * POST /portal/api/two-factor/enable {code, password}: turns two-factor on with a code from the app and the
 * current password; the buyer's other sessions end (issue 33.6). The recovery codes are in this answer only.
 */
export const POST = portalAction(
  EnableTotpSchema,
  async (input, { buyer }) => {
    const codes = await enableTotp(buyerTotpOwner(buyer), input);
    return { reveal: codes.map((value, i) => ({ label: `#${i + 1}`, value })) };
  },
  { pending: "allowed" }, // issue 33.3: the account page works while the account waits
);
