import { z } from "zod";
import { buyerActor } from "@/lib/audit/actor";
import { resendCatalogEvent } from "@/lib/catalog-events/resend-catalog-event";
import { appError } from "@/lib/errors";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/catalog-events/{id}/resend: "send again" for one of the buyer's catalogue webhook deliveries. */
export const POST = portalAction(z.object({}), async (_input, { buyer, params }) => {
  const id = Number(params.eventId);
  if (!/^[1-9]\d{0,9}$/.test(String(params.eventId)) || id > 2_147_483_647) throw appError("not_found", "no such delivery");
  return resendCatalogEvent({ eventId: id, userId: buyer.userId, actor: buyerActor(buyer) });
});
