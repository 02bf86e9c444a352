import { z } from "zod";
import { buyerActor } from "@/lib/audit/actor";
import { writeAuditLog } from "@/lib/audit/write-audit-log";
import { db } from "@/lib/db/client";
import { appError } from "@/lib/errors";
import { revokeBuyerSession } from "@/lib/portal-auth/buyer-session";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/sessions/{id}/end: ends one of the buyer's own sessions (another's is a 404). */
export const POST = portalAction(
  z.object({}),
  async (_input, { buyer, params }) => {
    const id = String(params.sessionId);
    if (!z.uuid().safeParse(id).success || !(await revokeBuyerSession({ userId: buyer.userId, sessionId: id })))
      throw appError("not_found", "no such session");
    await writeAuditLog(db(), { actor: buyerActor(buyer), action: "buyer.session_end", targetType: "buyer_session", targetId: id });
    return {};
  },
  { pending: "allowed" },
); // issue 33.3: the account page works while the account waits
