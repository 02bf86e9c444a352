import type { Tx } from "../db/tx";
import { appError } from "../errors";

/** An order by its site number (what an administrator or the CLI types), or 404. */
export async function orderIdByNo(tx: Tx, orderNo: string): Promise<number> {
  const order = await tx.order.findUnique({ where: { orderNo: orderNo.trim() }, select: { id: true } });
  if (!order) throw appError("order_not_found", `order ${orderNo.trim()} not found`);
  return order.id;
}
