import { appError } from "@/lib/errors";
import { claimOrder } from "@/lib/fulfiller/claim-order";
import { deliverLeasedOrder } from "@/lib/fulfiller/deliver-leased-order";
import { failLeasedOrder } from "@/lib/fulfiller/fail-leased-order";
import { ClaimBodySchema, DeliverBodySchema, FailBodySchema, OrderNoSchema } from "@/lib/fulfiller/fulfiller-input";
import { serveFulfiller, type FulfillerCall } from "../../../fulfiller-edge";

export const dynamic = "force-dynamic";

type Action = (call: FulfillerCall & { orderNo: string }) => Promise<object>;

/** Issue 39: claim, deliver and fail one order (docs/fulfiller.md). */
const ACTIONS: Record<string, Action> = {
  claim: (c) => claimOrder({ ...c, leaseSeconds: ClaimBodySchema.parse(c.body).lease_seconds }),
  deliver: (c) => deliverLeasedOrder({ ...c, lines: DeliverBodySchema.parse(c.body).lines }),
  fail: (c) => failLeasedOrder({ ...c, reason: FailBodySchema.parse(c.body).reason }),
};

export async function POST(req: Request, ctx: { params: Promise<{ orderNo: string; action: string }> }) {
  const { orderNo, action } = await ctx.params;
  return serveFulfiller(req, (call) => {
    const run = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    if (!run) throw appError("not_found", "no such endpoint");
    return run({ ...call, orderNo: OrderNoSchema.parse(orderNo) });
  });
}
