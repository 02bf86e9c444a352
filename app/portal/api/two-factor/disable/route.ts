import { z } from "zod";
import { buyerTotpOwner, disableTotp } from "@/lib/admin-auth/manage-totp";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/two-factor/disable {password}: turns two-factor off; the password is asked again. */
export const POST = portalAction(z.object({ password: z.string().min(1).max(1024) }), async ({ password }, { buyer }) => {
  await disableTotp(buyerTotpOwner(buyer), password);
  return {};
});
