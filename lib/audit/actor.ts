// Who made a change, as every service that changes something takes it
// (issue 22.10): an administrator in the console (with the request's client
// address), a buyer in the portal (issue 24.3), an operator's fulfiller
// script by its token (issue 39), the ops CLI, or the system
// itself (start-up, seeds, jobs). The
// service writes its audit row from it in its own transaction; callers never
// audit for it.

export interface Actor {
  kind: "admin" | "buyer" | "fulfiller" | "cli" | "system";
  /** The administrator's id (kind "admin"). */
  id?: number;
  /** The buyer's user id (kind "buyer"). */
  userId?: string;
  /** The fulfiller token's name (kind "fulfiller"): the audit row's actor is "fulfiller:<name>". */
  tokenName?: string;
  /** The client address of a console request. */
  ip?: string | null;
}

export const CLI_ACTOR: Actor = { kind: "cli" };
export const SYSTEM_ACTOR: Actor = { kind: "system" };

/** The actor of a console action: the signed-in administrator and the request's client address. */
export function adminActor(admin: { id: number; ip: string | null }): Actor {
  return { kind: "admin", id: admin.id, ip: admin.ip };
}

/** The actor of a portal action: the signed-in buyer and the request's client address. */
export function buyerActor(buyer: { userId: string; ip: string | null }): Actor {
  return { kind: "buyer", userId: buyer.userId, ip: buyer.ip };
}
