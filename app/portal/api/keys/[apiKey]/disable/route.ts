import { z } from "zod";
import { buyerActor } from "@/lib/audit/actor";
import { disableApiKey } from "@/lib/credentials/disable-api-key";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/keys/{apiKey}/disable: the key stops authenticating (D9). */
export const POST = portalAction(z.object({}), async (_input, { buyer, params }) => {
  await disableApiKey({ apiKey: String(params.apiKey), userId: buyer.userId, actor: buyerActor(buyer) });
  return {};
});
