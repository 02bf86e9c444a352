import { z } from "zod";
import { buyerActor } from "@/lib/audit/actor";
import { revealOrderKeys } from "@/lib/portal/reveal-order-keys";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/orders/{orderNo}/reveal: the order's delivered lines, audited (reveal-order-keys.ts). */
export const POST = portalAction(z.object({}), async (_input, { buyer, params }) => {
  const lines = await revealOrderKeys({ userId: buyer.userId, orderNo: String(params.orderNo).slice(0, 64), actor: buyerActor(buyer) });
  return { lines };
});
