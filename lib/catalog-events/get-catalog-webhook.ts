import { db } from "../db/client";

/** Issue 12.2: the key's catalogue webhook URL, or null when none is registered. */
export async function getCatalogWebhook(input: { credentialId: number }): Promise<{ url: string | null }> {
  const row = await db().catalogWebhook.findUnique({ where: { credentialId: input.credentialId }, select: { url: true } });
  return { url: row?.url ?? null };
}
