import crypto from "node:crypto";
import { z } from "zod";
import type { Tx } from "../db/tx";

// Issue 22.10: the console's money forms (points adjustment, manual delivery,
// fail and refund) carry a one-time token, so the same submission twice (a
// double click, a browser's retry, a second tab) changes money once
// (decision 0034).

/** What a form's hidden `once_token` holds: 128 random bits, base64url (the client makes more of the same). */
export const OnceTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "is not a form token; reload the page");

/** A fresh token for a money form, rendered by the server into the page. */
export function newOnceToken(): string {
  return crypto.randomBytes(16).toString("base64url");
}

/** A submission whose token was already used: nothing was changed, and the console says "already done". */
export class AlreadyDoneError extends Error {
  constructor() {
    super("this form was already submitted");
  }
}

/**
 * Uses up a token inside the transaction of the change it carries: the first
 * statement of that transaction, so a second submission of the same token
 * waits on the first's row and, once that commits, finds it taken and throws
 * AlreadyDoneError (its transaction then rolls back, changing nothing). A
 * failed change rolls the token back with it: the form may be sent again.
 */
export async function consumeOnceToken(tx: Tx, token: string | undefined, action: string): Promise<void> {
  if (token === undefined) return;
  const inserted = await tx.$executeRaw`INSERT INTO "OnceToken" ("token", "action") VALUES (${token}, ${action}) ON CONFLICT DO NOTHING`;
  if (inserted === 0) throw new AlreadyDoneError();
}
