import { db } from "../db/client";
import type { Tx } from "../db/tx";

/** The single settings row (created by the first migration). */
export async function getSettings(tx: Tx = db()) {
  return tx.siteSettings.findUniqueOrThrow({ where: { id: 1 } });
}
