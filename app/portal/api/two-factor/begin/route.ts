import { z } from "zod";
import { CurrentPasswordSchema } from "@/lib/admin-auth/confirm-own-password";
import { beginTotpSetup, buyerTotpOwner } from "@/lib/admin-auth/manage-totp";
import { getI18n } from "@/lib/i18n/server";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/two-factor/begin {password}: a new authenticator secret for the signed-in buyer, shown in this answer only (issues 24.1, 33.6). */
export const POST = portalAction(
  z.object({ password: CurrentPasswordSchema }),
  async ({ password }, { buyer }) => {
    const { secret, uri } = await beginTotpSetup(buyerTotpOwner(buyer), password);
    const { t } = await getI18n();
    return {
      reveal: [
        { label: t("security.secret"), value: secret },
        { label: t("security.uri"), value: uri },
      ],
    };
  },
  { pending: "allowed" }, // issue 33.3: the account page works while the account waits
);
