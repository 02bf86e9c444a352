import type { Tx } from "../db/tx";
import type { SendResult } from "./channels/send-result";

/** The channel's latest success or failure, which the console and the dashboard show. */
export async function recordChannelOutcome(tx: Tx, channelId: number, result: SendResult): Promise<void> {
  const now = new Date();
  await tx.alertChannel.update({
    where: { id: channelId },
    data: result.ok ? { lastOkAt: now } : { lastErrorAt: now, lastError: (result.error ?? "failed").slice(0, 300) },
  });
}
