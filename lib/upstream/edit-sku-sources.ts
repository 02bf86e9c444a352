import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { isUniqueViolation, type Tx } from "../db/tx";
import { appError } from "../errors";
import { formatAmount, NonNegativeAmountInputSchema } from "../protocol/amount";
import { Int4IdSchema } from "../protocol/ids";
import { loadSkuSources, type SkuSources } from "./load-sku-sources";

const Position = z.coerce.number("must be a whole number").int("must be a whole number").min(1, "positions start at 1").max(1000);

/** One change to a SKU's list of sources (issue 26.1): the CLI's sku:sources and the console's sources panel. */
export const SkuSourcesChangeSchema = z.discriminatedUnion("op", [
  z.object({
    op: z.literal("add-upstream"),
    connectionId: Int4IdSchema,
    upstreamSkuId: Int4IdSchema,
    /** Empty: the SKU's ceiling, else the unit price paid (issue 22.1). */
    maxCostCents: z
      .union(
        [z.literal("").transform(() => null), NonNegativeAmountInputSchema],
        'must be an amount with at most two decimals, like "1.50"',
      )
      .nullable()
      .default(null),
  }),
  z.object({ op: z.literal("add-local") }),
  z.object({ op: z.literal("remove"), position: Position }),
  z.object({ op: z.literal("move"), position: Position, to: Position }),
  z.object({ op: z.literal("enable"), position: Position }),
  z.object({ op: z.literal("disable"), position: Position }),
  z.object({ op: z.literal("policy"), policy: z.enum(["priority", "cheapest"], "must be priority or cheapest") }),
]);
export type SkuSourcesChange = z.output<typeof SkuSourcesChangeSchema>;

/**
 * Changes a SKU's list of sources, with its audit row, in one transaction.
 * The first change saves the product's default list as the SKU's own
 * (decision 0042), so the change applies to what the administrator saw.
 * Rules: our card keys at most once and always first (they are taken in the
 * order's own statement, before any upstream); each upstream SKU once;
 * positions stay 1..n. Concurrent edits of one SKU queue on its list row.
 */
export async function editSkuSources(input: { skuCode: string; change: SkuSourcesChange; actor: Actor }): Promise<SkuSources> {
  const { change } = input;
  try {
    return await db().$transaction(async (tx) => {
      const sku = await tx.sku.findUnique({ where: { skuCode: input.skuCode.trim() }, select: { id: true, skuCode: true } });
      if (!sku) throw appError("not_found", `SKU ${input.skuCode.trim()} not found`);
      await ownList(tx, sku.id);
      const rows = await tx.skuSource.findMany({ where: { skuId: sku.id }, orderBy: [{ position: "asc" }, { id: "asc" }] });
      const at = (position: number) => {
        const row = rows[position - 1];
        if (!row) throw appError("bad_request", `there is no source at position ${position} (the list has ${rows.length})`);
        return row;
      };
      let order = rows.map((r) => r.id);
      if (change.op === "policy") {
        await tx.skuSourceList.update({ where: { skuId: sku.id }, data: { policy: change.policy } });
      } else if (change.op === "add-local") {
        if (rows.some((r) => r.kind === "local")) throw appError("bad_request", "our own card keys are already a source of this SKU");
        const created = await tx.skuSource.create({ data: { skuId: sku.id, position: 1, kind: "local" } });
        order = [created.id, ...order];
      } else if (change.op === "add-upstream") {
        const conn = await tx.upstreamConnection.findUnique({ where: { id: change.connectionId }, select: { id: true } });
        if (!conn) throw appError("not_found", `upstream connection ${change.connectionId} not found`);
        const created = await tx.skuSource.create({
          data: {
            skuId: sku.id,
            position: rows.length + 1,
            kind: "upstream",
            connectionId: conn.id,
            upstreamSkuId: change.upstreamSkuId,
            maxCostCents: change.maxCostCents,
          },
        });
        order = [...order, created.id];
      } else if (change.op === "remove") {
        const row = at(change.position);
        await tx.skuSource.delete({ where: { id: row.id } });
        order = order.filter((id) => id !== row.id);
      } else if (change.op === "move") {
        const row = at(change.position);
        at(change.to);
        order = order.filter((id) => id !== row.id);
        order.splice(change.to - 1, 0, row.id);
        const local = rows.find((r) => r.kind === "local");
        if (local && order[0] !== local.id)
          throw appError("bad_request", "our own card keys are always the first source (they are taken when the order is placed)");
      } else {
        await tx.skuSource.update({ where: { id: at(change.position).id }, data: { isEnabled: change.op === "enable" } });
      }
      for (const [i, id] of order.entries()) await tx.skuSource.update({ where: { id }, data: { position: i + 1 } });
      await writeAuditLog(tx, {
        actor: input.actor,
        action: "sku.sources",
        targetType: "sku",
        targetId: String(sku.id),
        details: { skuCode: sku.skuCode, ...auditDetails(change) },
      });
      return (await loadSkuSources(sku.id, tx))!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw appError("bad_request", "that upstream SKU is already a source of this SKU");
    throw err;
  }
}

/** The SKU's own list row, locked; made from the product's default list on first use (the one rule in load-sku-sources.ts). */
async function ownList(tx: Tx, skuId: number): Promise<void> {
  const before = await loadSkuSources(skuId, tx);
  // A concurrent first edit waits here for ours (unique key) and then makes nothing.
  const made = await tx.$executeRaw`INSERT INTO "SkuSourceList" ("skuId", "updatedAt") VALUES (${skuId}, now()) ON CONFLICT DO NOTHING`;
  await tx.$queryRaw`SELECT 1 FROM "SkuSourceList" WHERE "skuId" = ${skuId} FOR UPDATE`;
  if (!made || !before || before.own) return;
  for (const d of before.sources) {
    await tx.skuSource.create({
      data: { skuId, position: d.position, kind: d.kind, connectionId: d.connectionId, upstreamSkuId: d.upstreamSkuId },
    });
  }
}

/** The list as the CLI prints it and the console shows it: amounts as two-decimal strings. */
export function skuSourcesJson(list: SkuSources) {
  const amount = (c: bigint | null) => (c === null ? null : formatAmount(c));
  return {
    sku_id: list.skuId,
    own_list: list.own,
    policy: list.policy,
    sku_max_cost: amount(list.skuMaxCostCents),
    sources: list.sources.map((s) => ({
      position: s.position,
      kind: s.kind,
      connection_id: s.connectionId,
      connection: s.connectionName,
      upstream_sku_id: s.upstreamSkuId,
      max_cost: amount(s.maxCostCents),
      enabled: s.isEnabled,
      last_cost: amount(s.knownCostCents),
      last_stock: s.knownStock,
      breaker: s.breaker,
    })),
  };
}

function auditDetails(change: SkuSourcesChange): Record<string, string | number | null> {
  if (change.op !== "add-upstream") return { ...change };
  return { ...change, maxCostCents: change.maxCostCents === null ? null : formatAmount(change.maxCostCents) };
}
