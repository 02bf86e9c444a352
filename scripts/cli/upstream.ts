// Upstream suppliers.
import { z } from "zod";
import { MarkupPercentSchema, UpstreamConnectionFields as F, UpstreamMaxCostSchema } from "../../lib/upstream/connection-input";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { command } from "./command";
import { secretFromFile, withSecret } from "./read-secret";
import { Int4IdTextSchema } from "../../lib/protocol/ids";
export const commands = {
  "upstream:add": command({
    usage:
      "upstream:add --name N --base-url URL (--profile U|P | --protocol dujiao-next) --api-key K (--api-secret-file F | --api-secret S) [--max-wait-seconds 1800]",
    options: {
      name: { type: "string" },
      "base-url": { type: "string" },
      profile: { type: "string" },
      protocol: { type: "string" },
      "api-key": { type: "string" },
      "api-secret": { type: "string" },
      ...secretFromFile("api-secret"),
      "max-wait-seconds": { type: "string" },
    },
    input: (v) => withSecret(v, "api-secret"),
    schema: z
      .object({
        name: F.name,
        "base-url": F.baseUrl,
        // Issue 37.3: svc (our protocol, the default) or dujiao-next (a Dujiao-Next supplier, no --profile).
        protocol: z.enum(["svc", "dujiao-next"], 'must be "svc" or "dujiao-next"').default("svc"),
        profile: F.profile,
        "api-key": F.apiKey,
        "api-secret": F.apiSecret,
        "max-wait-seconds": F.maxWaitSeconds,
      })
      .superRefine((a, ctx) => {
        if (a.protocol === "svc" && !a.profile) ctx.addIssue({ code: "custom", path: ["profile"], message: "must be U or P" });
        if (a.protocol === "dujiao-next" && a.profile)
          ctx.addIssue({ code: "custom", path: ["profile"], message: "does not apply to --protocol dujiao-next" });
      }),
    run: async (a) => {
      const { addUpstreamConnection } = await import("../../lib/upstream/add-upstream-connection");
      const c = await addUpstreamConnection(
        {
          name: a.name,
          baseUrl: a["base-url"],
          protocol: a.protocol,
          profile: a.profile,
          apiKey: a["api-key"],
          apiSecret: a["api-secret"],
          maxWaitSeconds: a["max-wait-seconds"],
        },
        { actor },
      );
      return { id: c.id };
    },
  }),
  // Issue 26.1: the upstream's catalogue events set our sources' last known stock.
  "upstream:catalog-webhook": command({
    usage: "upstream:catalog-webhook --connection ID",
    options: { connection: { type: "string" } },
    input: (v) => v,
    schema: z.object({ connection: Int4IdTextSchema }),
    run: async (a) => {
      const { registerCatalogWebhook } = await import("../../lib/upstream/register-catalog-webhook");
      return registerCatalogWebhook({ connectionId: a.connection, actor });
    },
  }),
  "upstream:import": command({
    usage: "upstream:import --connection ID [--markup-percent 10]",
    options: { connection: { type: "string" }, "markup-percent": { type: "string" } },
    input: (v) => v,
    schema: z.object({
      connection: Int4IdTextSchema,
      "markup-percent": MarkupPercentSchema.default("0"),
    }),
    run: async (a) => {
      const { importUpstreamCatalog } = await import("../../lib/upstream/import-upstream-catalog");
      const c = await importUpstreamCatalog({ connectionId: a.connection, markupPercent: a["markup-percent"], actor });
      return {
        categories_created: c.categoriesCreated,
        categories_updated: c.categoriesUpdated,
        categories_delisted: c.categoriesDelisted,
        products_created: c.productsCreated,
        products_updated: c.productsUpdated,
        products_delisted: c.productsDelisted,
        skus_created: c.skusCreated,
        skus_updated: c.skusUpdated,
        skus_delisted: c.skusDelisted,
        // Issue 8.3: what was left out and why (our words, never the upstream's).
        skipped: c.skipped.map((s) => ({ upstream_product_id: s.upstreamProductId, reason: s.reason })),
        // Issue 22.1: held off sale for their price until accepted (upstream:accept).
        held: c.held.map((h) => ({ upstream_product_id: h.upstreamProductId, product_id: h.productId, reason: h.reason })),
      };
    },
  }),
  "upstream:held": command({
    usage: "upstream:held",
    options: {},
    input: (v) => v,
    schema: z.object({}),
    run: async () => {
      const { listHeldProducts } = await import("../../lib/upstream/list-held-products");
      const rows = await listHeldProducts();
      return {
        held: rows.map((h) => ({
          product_id: h.productId,
          connection_id: h.connectionId,
          upstream_product_id: h.upstreamProductId,
          title: h.title.en,
          reason: h.reason,
          price: h.price,
          skus: h.skus.map((s) => ({ sku_id: s.skuId, sku_code: s.skuCode, price: s.price })),
        })),
      };
    },
  }),
  "upstream:accept": command({
    usage: "upstream:accept --product ID",
    options: { product: { type: "string" } },
    input: (v) => v,
    schema: z.object({ product: Int4IdTextSchema }),
    run: async (a) => {
      const { acceptHeldProduct } = await import("../../lib/upstream/accept-held-product");
      const r = await acceptHeldProduct({ productId: a.product, actor });
      return { product_id: r.productId, is_active: r.isActive };
    },
  }),
  "upstream:max-cost": command({
    usage: "upstream:max-cost --sku ID --max-cost 12.50|default",
    options: { sku: { type: "string" }, "max-cost": { type: "string" } },
    input: (v) => v,
    schema: z.object({ sku: Int4IdTextSchema, "max-cost": UpstreamMaxCostSchema.shape.maxCost }),
    run: async (a) => {
      const { setUpstreamMaxCost } = await import("../../lib/upstream/set-upstream-max-cost");
      const r = await setUpstreamMaxCost({ skuId: a.sku, maxCostCents: a["max-cost"], actor });
      return { sku_id: r.skuId, max_cost: r.maxCost };
    },
  }),
  "upstream:list": command({
    usage: "upstream:list [--ping]",
    options: { ping: { type: "boolean" } },
    input: (v) => v,
    schema: z.object({ ping: z.boolean().default(false) }),
    run: async (a) => {
      const { listUpstreamConnections, pingUpstreamConnection } = await import("../../lib/upstream/list-upstream-connections");
      if (a.ping) for (const c of await listUpstreamConnections()) await pingUpstreamConnection(c.id, { actor });
      const rows = await listUpstreamConnections();
      return {
        connections: rows.map((c) => ({
          id: c.id,
          name: c.name,
          base_url: c.baseUrl,
          profile: c.profile,
          api_key: c.apiKey,
          max_wait_seconds: c.maxWaitSeconds,
          enabled: c.isEnabled,
          last_ping_at: c.lastPingAt,
          last_ping_ok: c.lastPingOk,
          balance: c.lastBalance,
          products: c.products,
        })),
      };
    },
  }),
};
