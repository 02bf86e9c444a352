import type { Tx } from "../db/tx";
import { AppError } from "../errors";

/** An order by its site number (what an administrator or the CLI types), or 404. */
export async function orderIdByNo(tx: Tx, orderNo: string): Promise<number> {
  const order = await tx.order.findUnique({ where: { orderNo: orderNo.trim() }, select: { id: true } });
  if (!order) throw new AppError("order_not_found", 404, `order ${orderNo.trim()} not found`);
  return order.id;
}
