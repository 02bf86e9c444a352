import { z } from "zod";
import { db } from "../db/client";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

/** An API key as an operator types or pastes it (console, CLI); never a secret. */
export const ApiKeyTextSchema = z.string().trim().min(1, "is required").max(200, "must be at most 200 characters");

/**
 * Disables an API key; requests signed with it get 401 from now on (D9).
 * Idempotent: disabling a disabled key keeps its first disabledAt (and is
 * not audited again: nothing changed).
 */
export async function disableApiKey({ apiKey, actor, userId }: { apiKey: string; actor: Actor; userId?: string }): Promise<void> {
  // `userId` (the portal's buyer): another buyer's key answers as a missing one (issue 24.3).
  const owner = userId ? { userId } : {};
  await db().$transaction(async (tx) => {
    const { count } = await tx.apiCredential.updateMany({
      where: { apiKey, isActive: true, ...owner },
      data: { isActive: false, disabledAt: new Date() },
    });
    if (count === 1) {
      await writeAuditLog(tx, { actor, action: "api_key.disable", targetType: "api_credential", targetId: apiKey });
    } else if (!(await tx.apiCredential.count({ where: { apiKey, ...owner } }))) {
      throw appError("not_found", "no such API key");
    }
  });
}
