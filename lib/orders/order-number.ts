import crypto from "node:crypto";

/**
 * A site order number (D4): "SK" + UTC yyyymmdd + 8 random digits. Random, not
 * sequential, so numbers do not reveal sales volume; the unique index on
 * Order.orderNo is the last defence, and createOrder retries on a collision.
 */
export function newOrderNo(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  const digits = (crypto.randomInt(0, 100_000_000) + 100_000_000).toString().slice(1);
  return `SK${day}${digits}`;
}
