import { z } from "zod";
import { buyerActor } from "@/lib/audit/actor";
import { OverlapHoursSchema, rotateApiSecret } from "@/lib/credentials/rotate-api-secret";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/keys/{apiKey}/rotate {overlapHours}: a new secret (shown once); the old one works for the overlap (decision 0039). */
export const POST = portalAction(z.object({ overlapHours: OverlapHoursSchema }), async ({ overlapHours }, { buyer, params }) => {
  const key = await rotateApiSecret({ apiKey: String(params.apiKey), userId: buyer.userId, overlapHours, actor: buyerActor(buyer) });
  return { reveal: [{ label: "API secret", value: key.apiSecret }], previousSecretUntil: key.previousSecretUntil?.toISOString() ?? null };
});
