import { expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { useTestDatabase } from "../testing/test-database";
import { addAlertChannel } from "./add-channel";
import { dispatchAlertJob } from "./dispatch-alert";
import { enqueueAlert } from "./enqueue-alert";
import { recordChannelOutcome } from "./record-channel-outcome";

// Each dispatch locks the send job of every channel in turn. Sends record their outcome on the
// channel's row, which moves it in the table: dispatches that took the channels in table order
// then took the locks in different orders and deadlocked (CI, 2026-11-29: the dispatch job's
// retries backed off for half a minute and the alerts of the fold test waited with it).
it("issue 25.3: concurrent dispatches while sends record their outcomes never deadlock", async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // the channels are never sent to here
  await useTestDatabase();
  for (let i = 0; i < 4; i++)
    await addAlertChannel({ kind: "webhook", name: `hook ${i}`, url: `http://127.0.0.1:9/hook-${i}` }, { actor: SYSTEM_ACTOR });
  const channels = await db().alertChannel.findMany({ select: { id: true } });
  const failures: string[] = [];
  for (let round = 0; round < 10; round++) {
    const ids: bigint[] = [];
    await db().$transaction(async (tx) => {
      for (let i = 0; i < 8; i++)
        ids.push(
          (await enqueueAlert(tx, {
            kind: "admin_locked",
            dedupeKey: `dl:${round}:${i}`,
            params: { email: "a@example.test", ip: "192.0.2.1" },
          }))!,
        );
    });
    let sending = true;
    const sends = (async () => {
      for (let k = 0; sending; k++)
        await db().$transaction((tx) =>
          recordChannelOutcome(tx, channels[k % channels.length].id, { ok: true, error: null, durationMs: 1 }),
        );
    })();
    const results = await Promise.allSettled(ids.map((id) => dispatchAlertJob({ eventId: String(id) })));
    sending = false;
    await sends;
    for (const r of results) if (r.status === "rejected") failures.push(String(r.reason).slice(0, 160));
  }
  expect(failures).toEqual([]);
  expect(await db().alertDelivery.count()).toBe(10 * 8 * channels.length);
});
