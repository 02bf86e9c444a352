import { stampCatalog } from "../catalog/stamp-catalog";
import { db } from "../db/client";
import { verifyCallback } from "../protocol/verify-callback";
import type { CatalogEventWire } from "../protocol/catalog-event-wire";
import { waitFor, type CallbackReceiver } from "./callback-receiver";
import { makeBuyer } from "./factories";
import { setCatalogWebhook } from "../catalog-events/set-catalog-webhook";

// Shared by the catalogue event tests (issue 12.2): a buyer with a webhook on
// its own path of the loopback receiver, and the events that path received,
// each verified as a downstream would (verifyCallback, D27).

/** Stamps everything committed so far (retries while the worker's tick is stamping). */
export async function settleStamps(): Promise<void> {
  await waitFor(async () => (await stampCatalog()) !== null, 10_000, 20);
}

export async function hookedBuyer(receiver: CallbackReceiver, name: string) {
  const buyer = await makeBuyer();
  const path = `/catalog/${name}-${buyer.id}`;
  await setCatalogWebhook({ credentialId: buyer.id, url: `${receiver.origin}${path}?k=1` });
  const events = (): CatalogEventWire[] =>
    receiver.received
      .filter((r) => r.url.split("?")[0] === path)
      .map((r) => {
        const v = verifyCallback(r.body, r.headers, buyer.apiSecret, path);
        if (!v.ok || v.event.event !== "catalog.updated") throw new Error(`unverified catalogue event: ${v.ok ? v.event.event : v.error}`);
        return v.event;
      });
  const rows = () =>
    db().catalogEvent.findMany({
      where: { credentialId: buyer.id },
      orderBy: { id: "asc" },
      include: { attempts: { orderBy: { id: "asc" } } },
    });
  return { buyer, path, events, rows };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
