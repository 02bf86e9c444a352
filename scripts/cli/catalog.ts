// Settings and the catalogue file.
import fs from "node:fs";
import { z } from "zod";
import type { CatalogFile } from "../../lib/catalog/catalog-file-schema";
import { readCatalogFile } from "../../lib/catalog/validate-catalog-file";
import { SettingsPatchSchema } from "../../lib/settings/update-settings";
import { command, UsageError } from "./command";
export const commands = {
  "settings:set": command({
    usage: "settings:set key=value ... (site_name, public_base_url, image_exposure, points_debit_enabled, rate_limit_per_key, rate_limit_per_ip)",
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
      return settingsView(await updateSettings(patch));
    },
  }),
  "catalog:import": command({
    usage: "catalog:import FILE",
    options: {},
    positionals: true,
    input: (_v, files) => {
      if (files.length !== 1) throw new UsageError("give exactly one FILE");
      let text;
      try {
        text = fs.readFileSync(files[0], "utf8");
      } catch (err) {
        throw new UsageError(`cannot read ${files[0]}: ${(err as NodeJS.ErrnoException).code ?? err}`);
      }
      // The whole file is validated here, before the database is touched.
      return readCatalogFile(text);
    },
    schema: z.custom<CatalogFile>(),
    run: async (file) => {
      const { importCatalog } = await import("../../lib/catalog/import-catalog");
      const c = await importCatalog(file);
      return {
        categories_created: c.categoriesCreated, categories_updated: c.categoriesUpdated,
        products_created: c.productsCreated, products_updated: c.productsUpdated,
        skus_created: c.skusCreated, skus_updated: c.skusUpdated,
        card_keys_added: c.cardKeysAdded, card_keys_skipped: c.cardKeysSkipped,
        level_prices_changed: c.levelPricesChanged,
      };
    },
  }),
};
