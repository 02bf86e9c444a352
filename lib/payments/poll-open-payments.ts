import { db } from "../db/client";
import { log } from "../log";
import { queryPayment } from "./query-payment";

// Issue 36: the periodic active query (the payment tick, every minute): each
// open payment is asked about (a lost notify is found here), and one past its
// expiry is expired only after that last query. The expiry is a guarded
// UPDATE (state still created or pending), so a notify that commits first
// wins, and one that comes after goes to review (apply-report.ts).

/** Open payments looked at per tick, the least recently asked first. */
const BATCH = 200;

export async function pollOpenPayments(now = new Date()): Promise<{ queried: number; expired: number }> {
  const open = await db().payment.findMany({
    where: { state: { in: ["created", "pending"] } },
    orderBy: [{ lastQueryAt: { sort: "asc", nulls: "first" } }, { id: "asc" }],
    take: BATCH,
    select: { paymentNo: true, expiresAt: true },
  });
  let queried = 0;
  let expired = 0;
  for (const p of open) {
    try {
      const r = await queryPayment(p.paymentNo);
      if (r.supported) queried++;
    } catch (err) {
      // The gateway is down: the payment stays open and is asked again next tick; it is not expired unasked.
      log.warn(
        { component: "payments", paymentNo: p.paymentNo, err: err instanceof Error ? err.message : String(err) },
        "payment query failed",
      );
      continue;
    }
    if (p.expiresAt <= now) {
      const n = await db().payment.updateMany({
        where: { paymentNo: p.paymentNo, state: { in: ["created", "pending"] } },
        data: { state: "expired", stateReason: "not paid before it expired" },
      });
      expired += n.count;
    }
  }
  return { queried, expired };
}
