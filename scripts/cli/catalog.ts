// Settings, the catalogue file and catalogue events.
import fs from "node:fs";
import { z } from "zod";
import { SettingsPatchSchema } from "../../lib/settings/update-settings";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { command, UsageError } from "./command";
export const commands = {
  "settings:set": command({
    usage:
      "settings:set key=value ... (site_name, public_base_url, image_exposure, points_debit_enabled, rate_limit_per_key, rate_limit_per_ip, language, buyer_registration)",
    options: {},
    positionals: true,
    input: (_v, pairs) => {
      if (!pairs.length) throw new UsageError("give at least one key=value");
      const patch: Record<string, string> = {};
      for (const pair of pairs) {
        const eq = pair.indexOf("=");
        if (eq < 1) throw new UsageError(`expected key=value, got ${JSON.stringify(pair)}`);
        const key = pair.slice(0, eq);
        if (key in patch) throw new UsageError(`${key} given twice`);
        patch[key] = pair.slice(eq + 1);
      }
      return patch;
    },
    schema: SettingsPatchSchema,
    run: async (patch) => {
      const { updateSettings, settingsView } = await import("../../lib/settings/update-settings");
      return settingsView(await updateSettings(patch, { actor }));
    },
  }),
  // Issue 22.9: the operator's view of catalogue events, cancelled ones included (the console shows the same).
  "catalog-event:list": command({
    usage: "catalog-event:list [--status pending|delivered|failed|cancelled] [--limit N]",
    options: { status: { type: "string" }, limit: { type: "string" } },
    input: (v) => v,
    schema: z.object({
      status: z.enum(["pending", "delivered", "failed", "cancelled"]).optional(),
      limit: z
        .string()
        .regex(/^[0-9]{1,4}$/, "must be a whole number from 1 to 1000")
        .transform(Number)
        .refine((n) => n >= 1 && n <= 1000, "must be a whole number from 1 to 1000")
        .default(100),
    }),
    run: async (a) => {
      const { listCatalogEvents } = await import("../../lib/catalog-events/list-catalog-events");
      const events = await listCatalogEvents({ status: a.status, limit: a.limit });
      return {
        events: events.map((e) => ({
          id: e.id,
          api_key: e.apiKey,
          url: e.url,
          products: e.products,
          status: e.status,
          attempts: e.attempts,
          last_error: e.lastError,
          next_attempt_at: e.nextAttemptAt,
          delivered_at: e.deliveredAt,
          created_at: e.createdAt,
        })),
      };
    },
  }),
  "catalog:import": command({
    usage: "catalog:import FILE",
    options: {},
    positionals: true,
    input: (_v, files) => {
      if (files.length !== 1) throw new UsageError("give exactly one FILE");
      try {
        fs.accessSync(files[0], fs.constants.R_OK);
        if (!fs.statSync(files[0]).isFile()) throw Object.assign(new Error(), { code: "not a file" });
      } catch (err) {
        throw new UsageError(`cannot read ${files[0]}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      }
      return files[0];
    },
    schema: z.string(),
    // Issue 13.3: read as a stream inside the import's transaction; a bad
    // file is still rejected whole (exit 2) and writes nothing.
    run: async (path) => {
      const { importCatalogFile } = await import("../../lib/catalog/import-catalog-file");
      const progress = process.stderr.isTTY ? (line: string) => process.stderr.write(`${line}\n`) : undefined;
      const c = await importCatalogFile({ path, progress, actor });
      return {
        categories_created: c.categoriesCreated,
        categories_updated: c.categoriesUpdated,
        products_created: c.productsCreated,
        products_updated: c.productsUpdated,
        skus_created: c.skusCreated,
        skus_updated: c.skusUpdated,
        card_keys_added: c.cardKeysAdded,
        card_keys_skipped: c.cardKeysSkipped,
        level_prices_changed: c.levelPricesChanged,
      };
    },
  }),
};
