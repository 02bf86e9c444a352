import { db } from "../db/client";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

/**
 * One manual-form value of one order, for an administrator who asked to see
 * it. The audit row (who, which order, which field, IP; never the value) is
 * written in the same transaction before the value is returned.
 */
export async function revealFormField(input: { orderNo: string; field: string; actor: Actor }): Promise<string> {
  return db().$transaction(async (tx) => {
    const order = await tx.order.findUnique({ where: { orderNo: input.orderNo }, select: { id: true, manualFormData: true } });
    if (!order) throw appError("order_not_found", "order not found");
    const data = order.manualFormData as Record<string, unknown> | null;
    if (!data || typeof data !== "object" || !Object.hasOwn(data, input.field)) throw appError("not_found", "no such form field");
    await writeAuditLog(tx, {
      actor: input.actor,
      action: "order.form_reveal",
      targetType: "order",
      targetId: input.orderNo,
      details: { orderId: order.id, field: input.field },
    });
    const value = data[input.field];
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}
