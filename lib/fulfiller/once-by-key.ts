import crypto from "node:crypto";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import type { FulfillerToken } from "./fulfiller-token";

export interface KeyedRequest {
  /** The Idempotency-Key header, if sent. */
  key?: string;
  /** What the request was (path and body): the same key with anything else is 409. */
  request: string;
}

/**
 * Issue 39: a fulfiller POST with an Idempotency-Key runs once per token and
 * key. The key row is written first, in the transaction of the change, so a
 * concurrent duplicate waits on the unique index and then reads the stored
 * answer (or, if the first rolled back, runs itself). An error is not stored:
 * it rolls back with the key, and a retry meets the same state again.
 */
export async function onceByKey<T extends object>(token: FulfillerToken, req: KeyedRequest, run: (tx: Tx) => Promise<T>): Promise<T> {
  const { key } = req;
  if (key === undefined) return db().$transaction(run);
  const requestHash = crypto.createHash("sha256").update(req.request).digest("hex");
  return db().$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO "FulfillerIdempotency" ("tokenId", "key", "requestHash", "response")
      VALUES (${token.id}, ${key}, ${requestHash}, '') ON CONFLICT DO NOTHING`;
    if (inserted === 0) {
      const stored = await tx.fulfillerIdempotency.findUniqueOrThrow({ where: { tokenId_key: { tokenId: token.id, key } } });
      if (stored.requestHash !== requestHash) throw appError("idempotency_conflict", "this Idempotency-Key was used with another request");
      return JSON.parse(stored.response) as T;
    }
    const answer = await run(tx);
    await tx.fulfillerIdempotency.update({
      where: { tokenId_key: { tokenId: token.id, key } },
      data: { response: JSON.stringify(answer) },
    });
    return answer;
  });
}
