// Issue 26.1: a SKU's list of sources (lib/upstream/edit-sku-sources.ts).
import { z } from "zod";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { SkuSourcesChangeSchema } from "../../lib/upstream/edit-sku-sources";
import { Int4IdTextSchema } from "../../lib/protocol/ids";
import { command, UsageError } from "./command";

const CHANGES = ["add-upstream", "add-local", "remove", "move", "enable", "disable", "policy"] as const;
const FLAG_OF: Record<string, string> = {
  connectionId: "--connection",
  upstreamSkuId: "--upstream-sku-id",
  maxCostCents: "--max-cost",
  to: "--to",
  policy: "--policy",
};

function requireOption(v: Record<string, unknown>, option: string, op: string): void {
  if (v[option] === undefined) throw new UsageError(`--${option} is required with --${op}`);
}

export const commands = {
  "sku:sources": command({
    usage:
      "sku:sources --sku-code C [--add-upstream --connection ID --upstream-sku-id N [--max-cost 1.00] | --add-local | --remove N | --move N --to M | --enable N | --disable N | --policy priority|cheapest]",
    options: {
      "sku-code": { type: "string" },
      "add-upstream": { type: "boolean" },
      connection: { type: "string" },
      "upstream-sku-id": { type: "string" },
      "max-cost": { type: "string" },
      "add-local": { type: "boolean" },
      remove: { type: "string" },
      move: { type: "string" },
      to: { type: "string" },
      enable: { type: "string" },
      disable: { type: "string" },
      policy: { type: "string" },
    },
    input: (v) => {
      const given = CHANGES.filter((c) => v[c] !== undefined && v[c] !== false);
      // Issue 26.1: one change per run, and no option that would be silently ignored.
      if (given.length > 1) throw new UsageError(`give at most one change, not ${given.map((c) => `--${c}`).join(" and ")}`);
      const op = given[0];
      for (const [option, owner] of [
        ["connection", "add-upstream"],
        ["upstream-sku-id", "add-upstream"],
        ["max-cost", "add-upstream"],
        ["to", "move"],
      ] as const) {
        if (v[option] !== undefined && op !== owner) throw new UsageError(`--${option} goes with --${owner}`);
      }
      if (op === "add-upstream") for (const o of ["connection", "upstream-sku-id"]) requireOption(v, o, op);
      if (op === "move") requireOption(v, "to", op);
      const change =
        op === undefined
          ? null
          : op === "add-upstream"
            ? { op, connectionId: v.connection, upstreamSkuId: v["upstream-sku-id"], maxCostCents: v["max-cost"] ?? null }
            : op === "add-local"
              ? { op }
              : op === "move"
                ? { op, position: v.move, to: v.to }
                : op === "policy"
                  ? { op, policy: v.policy }
                  : { op, position: v[op] };
      return { "sku-code": v["sku-code"], change };
    },
    // A problem inside the change names the option it came from.
    flagOf: (path, raw) => {
      if (path[0] !== "change" || typeof path[1] !== "string") return undefined;
      return path[1] === "position" ? `--${(raw.change as { op: string }).op}` : FLAG_OF[path[1]];
    },
    schema: z.object({
      "sku-code": z.string().trim().min(1, "must not be empty"),
      change: SkuSourcesChangeSchema.nullable(),
    }),
    run: async (a) => {
      const { editSkuSources, skuSourcesJson } = await import("../../lib/upstream/edit-sku-sources");
      const { findSkuSources } = await import("../../lib/upstream/load-sku-sources");
      return skuSourcesJson(
        a.change ? await editSkuSources({ skuCode: a["sku-code"], change: a.change, actor }) : await findSkuSources(a["sku-code"]),
      );
    },
  }),
  // Issue 26.1: the periodic stock refresh (lib/upstream/source-stock-tick.ts), at once.
  "sku:refresh-stock": command({
    usage: "sku:refresh-stock [--connection ID]",
    options: { connection: { type: "string" } },
    input: (v) => v,
    schema: z.object({ connection: Int4IdTextSchema.optional() }),
    run: async (a) => {
      const { refreshSourceStock } = await import("../../lib/upstream/refresh-source-stock");
      const results = await refreshSourceStock({ connectionId: a.connection });
      return {
        connections: results.map((r) => ({
          connection_id: r.connectionId,
          outcome: r.outcome,
          requests: r.requests,
          skus_seen: r.skusSeen,
          sources_updated: r.sourcesUpdated,
          ...(r.error ? { error: r.error } : {}),
        })),
      };
    },
  }),
};
