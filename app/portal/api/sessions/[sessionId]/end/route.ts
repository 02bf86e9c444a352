import { z } from "zod";
import { buyerActor } from "@/lib/audit/actor";
import { appError } from "@/lib/errors";
import { revokeBuyerSession } from "@/lib/portal-auth/buyer-session";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/sessions/{id}/end: ends one of the buyer's own sessions (another's is a 404). */
export const POST = portalAction(
  z.object({}),
  async (_input, { buyer, params }) => {
    const id = String(params.sessionId);
    const actor = buyerActor(buyer);
    if (!z.uuid().safeParse(id).success || !(await revokeBuyerSession({ userId: buyer.userId, sessionId: id, actor, why: "session_end" })))
      throw appError("not_found", "no such session");
    return {};
  },
  { pending: "allowed" },
); // issue 33.3: the account page works while the account waits
