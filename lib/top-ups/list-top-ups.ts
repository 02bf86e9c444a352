import { z } from "zod";
import { db } from "../db/client";
import { assertApprovedBuyer } from "../buyer-access/approved-buyer";

export const TopUpStateSchema = z.enum(["pending", "approved", "rejected"]);

/**
 * Top-up requests, newest first: the console queue and the CLI (every buyer,
 * `userId` unset) or one buyer's own (the portal passes the signed-in buyer).
 */
export async function listTopUps({
  userId,
  state,
  take = 100,
}: {
  userId?: string;
  state?: z.infer<typeof TopUpStateSchema>;
  take?: number;
}) {
  if (userId) await assertApprovedBuyer(userId); // issue 33.3: one buyer's own list
  return db().topUpRequest.findMany({
    where: { ...(userId ? { userId } : {}), ...(state ? { state } : {}) },
    orderBy: { id: "desc" },
    take,
    include: { user: { select: { email: true } } },
  });
}
