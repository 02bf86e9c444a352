import { z } from "zod";
import { buyerTotpOwner, enableTotp } from "@/lib/admin-auth/manage-totp";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/two-factor/enable {code}: turns two-factor on with a code from the app; the recovery codes are in this answer only. */
export const POST = portalAction(
  z.object({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, "must be 6 digits"),
  }),
  async ({ code }, { buyer }) => {
    const codes = await enableTotp(buyerTotpOwner(buyer), code);
    return { reveal: codes.map((value, i) => ({ label: `#${i + 1}`, value })) };
  },
);
