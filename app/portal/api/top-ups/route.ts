import { buyerActor } from "@/lib/audit/actor";
import { portalAction } from "@/lib/portal-auth/portal-route";
import { z } from "zod";
import { requestTopUp } from "@/lib/top-ups/request-top-up";

export const dynamic = "force-dynamic";

/** POST /portal/api/top-ups {amount, transferReference}: a request for an administrator; no money moves here. */
// The service checks the values (TopUpRequestSchema); here only their shape.
export const POST = portalAction(
  z.object({ amount: z.string().max(40), transferReference: z.string().max(400) }),
  async (input, { buyer }) => {
    const row = await requestTopUp({ userId: buyer.userId, input, actor: buyerActor(buyer) });
    return { id: row.id, state: row.state };
  },
);
