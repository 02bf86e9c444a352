import { setCatalogWebhook } from "../../catalog-events/set-catalog-webhook";
import { getCatalogWebhook } from "../../catalog-events/get-catalog-webhook";
import { deleteCatalogWebhook } from "../../catalog-events/delete-catalog-webhook";
import { CatalogWebhookBodySchema, type CatalogWebhookWire } from "../../protocol/catalog-event-wire";
import { defineEndpoint } from "../define-endpoint";

// Issue 12.2, Profile U extension (docs/protocol.md, "Catalogue events"): the
// key's catalogue webhook. Every method answers the state after the request,
// `{"ok": true, "url": "…" | null}`. Profile P sends no callbacks (section
// 6): its prefixes answer 404 not_found (the route file serves U only).

const wire = (r: { url: string | null }): CatalogWebhookWire => ({ ok: true, url: r.url });

export const getCatalogWebhookEndpoint = defineEndpoint({
  name: "catalog-webhook.get",
  handler: async (ctx) => wire(await getCatalogWebhook({ credentialId: ctx.credential.id })),
});

export const putCatalogWebhookEndpoint = defineEndpoint({
  name: "catalog-webhook.put",
  body: { U: CatalogWebhookBodySchema, P: CatalogWebhookBodySchema },
  handler: async (ctx) => wire(await setCatalogWebhook({ credentialId: ctx.credential.id, url: ctx.body.url })),
});

export const deleteCatalogWebhookEndpoint = defineEndpoint({
  name: "catalog-webhook.delete",
  handler: async (ctx) => wire(await deleteCatalogWebhook({ credentialId: ctx.credential.id })),
});
