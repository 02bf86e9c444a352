import { buyerActor } from "../../audit/actor";
import { setCatalogWebhook } from "../../catalog-events/set-catalog-webhook";
import { getCatalogWebhook } from "../../catalog-events/get-catalog-webhook";
import { deleteCatalogWebhook } from "../../catalog-events/delete-catalog-webhook";
import { type CatalogWebhookWire } from "../../protocol/catalog-event-wire";
import { ENDPOINTS } from "../../protocol/endpoints";
import { defineEndpoint } from "../define-endpoint";

// Issue 12.2, Profile U extension (docs/protocol.md, "Catalogue events"): the
// key's catalogue webhook. Every method answers the state after the request,
// `{"ok": true, "url": "…" | null}`. Profile P sends no callbacks (section
// 6): its prefixes answer 404 not_found (the table's entries are for U only).

const wire = (r: { url: string | null }): CatalogWebhookWire => ({ ok: true, url: r.url });

export const getCatalogWebhookEndpoint = defineEndpoint({
  ...ENDPOINTS.getCatalogWebhook,
  handler: async (ctx) => wire(await getCatalogWebhook({ credentialId: ctx.credential.id })),
});

export const putCatalogWebhookEndpoint = defineEndpoint({
  ...ENDPOINTS.putCatalogWebhook,
  handler: async (ctx) => wire(await setCatalogWebhook({ credentialId: ctx.credential.id, url: ctx.body.url })),
});

export const deleteCatalogWebhookEndpoint = defineEndpoint({
  ...ENDPOINTS.deleteCatalogWebhook,
  handler: async (ctx) =>
    wire(await deleteCatalogWebhook({ credentialId: ctx.credential.id, actor: buyerActor({ userId: ctx.credential.userId, ip: null }) })),
});
