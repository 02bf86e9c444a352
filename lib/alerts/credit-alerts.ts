import { db } from "../db/client";
import type { JobPayloads } from "../jobs/enqueue-job";
import { formatAmount } from "../protocol/amount";
import { enqueueAlert } from "./enqueue-alert";
import { flipAlertCondition } from "./flip-condition";

// Issue 38: a buyer's credit use crossed 80 % of its line. The User row's
// trigger (migration *_contract_prices_and_credit) queues this job on every
// crossing, either way; the condition "credit:<user>" makes the alert once per
// crossing up, whichever instance runs it and however often.

/** Use of the line at which the alert goes out: four fifths. */
const isHigh = (balanceCents: bigint, limitCents: bigint) => limitCents > 0n && -balanceCents * 5n >= limitCents * 4n;

export async function creditUseJob(job: JobPayloads["alert:credit-use"]): Promise<void> {
  await db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { id: job.userId },
      select: { id: true, email: true, balanceCents: true, creditLimitCents: true },
    });
    if (!user) return;
    const high = isHigh(user.balanceCents, user.creditLimitCents);
    const seq = await flipAlertCondition(tx, `credit:${user.id}`, high);
    if (seq === null || !high) return; // no change, or back under the line (silent)
    const used = -user.balanceCents;
    await enqueueAlert(tx, {
      kind: "credit_high",
      dedupeKey: `credit_high:${user.id}:${seq}`,
      params: {
        email: user.email,
        userId: user.id,
        used: `${formatAmount(used)} CNY`,
        limit: `${formatAmount(user.creditLimitCents)} CNY`,
        percent: Number((used * 100n) / user.creditLimitCents),
      },
    });
  });
}
