import { ListQuerySchema } from "@/lib/fulfiller/fulfiller-input";
import { listWaitingOrders } from "@/lib/fulfiller/list-waiting-orders";
import { serveFulfiller } from "../fulfiller-edge";

export const dynamic = "force-dynamic";

/** Issue 39: the manual orders waiting in the token's scope (docs/fulfiller.md). */
export function GET(req: Request) {
  return serveFulfiller(req, ({ token, ip }) => {
    const query = ListQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    return listWaitingOrders({ token, limit: query.limit, ip });
  });
}
