import { z } from "zod";
import { db } from "../db/client";
import { appError } from "../errors";

/** An API key as an operator types or pastes it (console, CLI); never a secret. */
export const ApiKeyTextSchema = z.string().trim().min(1, "is required").max(200, "must be at most 200 characters");

/**
 * Disables an API key; requests signed with it get 401 from now on (D9).
 * Idempotent: disabling a disabled key keeps its first disabledAt.
 */
export async function disableApiKey(apiKey: string): Promise<void> {
  const { count } = await db().apiCredential.updateMany({
    where: { apiKey, isActive: true },
    data: { isActive: false, disabledAt: new Date() },
  });
  if (count === 0 && !(await db().apiCredential.count({ where: { apiKey } }))) {
    throw appError("not_found", "no such API key");
  }
}
