import { z } from "zod";
import { CurrentPasswordSchema } from "@/lib/admin-auth/confirm-own-password";
import { buyerTotpOwner, disableTotp } from "@/lib/admin-auth/manage-totp";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/two-factor/disable {password}: turns two-factor off; the password is asked again. */
export const POST = portalAction(
  z.object({ password: CurrentPasswordSchema }),
  async ({ password }, { buyer }) => {
    await disableTotp(buyerTotpOwner(buyer), password);
    return {};
  },
  { pending: "allowed" }, // issue 33.3: the account page works while the account waits
);
