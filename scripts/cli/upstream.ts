// Upstream suppliers.
import { z } from "zod";
import { MarkupPercentSchema, UpstreamConnectionInputSchema } from "../../lib/upstream/connection-input";
import { command } from "./command";
import { secretFromFile, withSecret } from "./read-secret";
import { Int4IdTextSchema } from "../../lib/protocol/ids";
export const commands = {
  "upstream:add": command({
    usage: "upstream:add --name N --base-url URL --profile U|P --api-key K (--api-secret-file F | --api-secret S) [--max-wait-seconds 1800]",
    options: {
      name: { type: "string" }, "base-url": { type: "string" }, profile: { type: "string" },
      "api-key": { type: "string" }, "api-secret": { type: "string" }, ...secretFromFile("api-secret"), "max-wait-seconds": { type: "string" },
    },
    input: (v) => withSecret(v, "api-secret"),
    schema: z.object({
      name: UpstreamConnectionInputSchema.shape.name,
      "base-url": UpstreamConnectionInputSchema.shape.baseUrl,
      profile: UpstreamConnectionInputSchema.shape.profile,
      "api-key": UpstreamConnectionInputSchema.shape.apiKey,
      "api-secret": UpstreamConnectionInputSchema.shape.apiSecret,
      "max-wait-seconds": UpstreamConnectionInputSchema.shape.maxWaitSeconds,
    }),
    run: async (a) => {
      const { addUpstreamConnection } = await import("../../lib/upstream/add-upstream-connection");
      const c = await addUpstreamConnection(
        { name: a.name, baseUrl: a["base-url"], profile: a.profile, apiKey: a["api-key"], apiSecret: a["api-secret"], maxWaitSeconds: a["max-wait-seconds"] },
        { actor: "cli" },
      );
      return { id: c.id };
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
      const c = await importUpstreamCatalog({ connectionId: a.connection, markupPercent: a["markup-percent"], actor: "cli" });
      return {
        categories_created: c.categoriesCreated, categories_updated: c.categoriesUpdated, categories_delisted: c.categoriesDelisted,
        products_created: c.productsCreated, products_updated: c.productsUpdated, products_delisted: c.productsDelisted,
        skus_created: c.skusCreated, skus_updated: c.skusUpdated, skus_delisted: c.skusDelisted,
        // Issue 8.3: what was left out and why (our words, never the upstream's).
        skipped: c.skipped.map((s) => ({ upstream_product_id: s.upstreamProductId, reason: s.reason })),
      };
    },
  }),
  "upstream:list": command({
    usage: "upstream:list [--ping]",
    options: { ping: { type: "boolean" } },
    input: (v) => v,
    schema: z.object({ ping: z.boolean().default(false) }),
    run: async (a) => {
      const { listUpstreamConnections, pingUpstreamConnection } = await import("../../lib/upstream/list-upstream-connections");
      if (a.ping) for (const c of await listUpstreamConnections()) await pingUpstreamConnection(c.id);
      const rows = await listUpstreamConnections();
      return {
        connections: rows.map((c) => ({
          id: c.id, name: c.name, base_url: c.baseUrl, profile: c.profile, api_key: c.apiKey, max_wait_seconds: c.maxWaitSeconds,
          enabled: c.isEnabled, last_ping_at: c.lastPingAt, last_ping_ok: c.lastPingOk, balance: c.lastBalance, products: c.products,
        })),
      };
    },
  }),
};
