import { z } from "zod";
import { beginTotpSetup, buyerTotpOwner } from "@/lib/admin-auth/manage-totp";
import { getI18n } from "@/lib/i18n/server";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/two-factor/begin: a new authenticator secret for the signed-in buyer, shown in this answer only (issue 24.1). */
export const POST = portalAction(z.object({}), async (_input, { buyer }) => {
  const { secret, uri } = await beginTotpSetup(buyerTotpOwner(buyer));
  const { t } = await getI18n();
  return {
    reveal: [
      { label: t("security.secret"), value: secret },
      { label: t("security.uri"), value: uri },
    ],
  };
});
