import { onPool } from "../db/sql-rows";
import { placedFromRows, placeOrder, refusal, type PlacedOrder, type PlaceOrderRow } from "./place-order";

/**
 * placeOrder on the pool for an order that needs no app-made rows, with the
 * orders of one buyer grouped (issue 28.1, docs/decisions/0045-order-speed.md).
 *
 * An order's debit locks its buyer's "User" row until the order commits,
 * WAL flush included, so a buyer's orders are written one at a time
 * whatever we do. A buyer's first order goes to place_order at once, alone,
 * as before; orders of the same buyer that arrive while one is being written
 * wait here instead of in PostgreSQL, and go next together: one place_orders
 * statement (prisma/migrations/20261127100000_order_speed) writes each
 * of them with place_order in a block of its own, in arrival order, in one
 * transaction and one commit flush. Each order keeps its own refusal or
 * error (a rolled-back block writes nothing) and its own result. A request
 * is answered only after the transaction holding its order committed, so a
 * crash before that loses the whole group and every client, told nothing,
 * retries with its downstream_order_no (D18) — exactly once as before.
 *
 * Grouping is per process: several app instances each group their own
 * requests; PostgreSQL's row lock still orders them between instances.
 */
export function placeOrderForBuyer(row: PlaceOrderRow): Promise<PlacedOrder | null> {
  const queue = waiting.get(row.userId);
  if (queue) return new Promise((resolve, reject) => queue.push({ row, resolve, reject }));
  const mine: Waiting[] = [];
  waiting.set(row.userId, mine);
  return placeOrder(onPool, row).finally(() => void drain(row.userId, mine));
}

/**
 * At most 16 orders a statement: each uses two subtransactions (its block and
 * place_order's pick), and a backend keeps 64 in its cache; beyond that every
 * snapshot in the database gets slower (suboverflow).
 */
const MAX_GROUP = 16;

interface Waiting {
  row: PlaceOrderRow;
  resolve: (placed: PlacedOrder | null) => void;
  reject: (err: unknown) => void;
}

/** Statements of more than one order and the orders in them, since start (tests read them). */
export const groupStats = { statements: 0, orders: 0 };

/** userId → orders waiting while one of that buyer's statements runs; absent when none runs. */
const waiting = new Map<string, Waiting[]>();

async function drain(userId: string, queue: Waiting[]): Promise<void> {
  while (queue.length > 0) await placeGroup(queue.splice(0, MAX_GROUP));
  waiting.delete(userId); // same tick as the last length check: nothing can join in between
}

/** Settles every order of the group; never throws. */
async function placeGroup(group: Waiting[]): Promise<void> {
  if (group.length === 1) {
    const [one] = group;
    await placeOrder(onPool, one.row).then(one.resolve, one.reject);
    return;
  }
  groupStats.statements++;
  groupStats.orders += group.length;
  let rows: Record<string, unknown>[];
  try {
    rows = await onPool(PLACE_ORDERS_SQL, [JSON.stringify(group.map((w) => w.row))]);
  } catch (err) {
    for (const w of group) w.reject(err);
    return;
  }
  group.forEach((w, i) => {
    const mine = rows.filter((r) => Number(r.i) === i);
    const failed = mine.find((r) => r.errState != null);
    if (failed) w.reject(groupError(failed));
    else w.resolve(placedFromRows(mine));
  });
}

/** The error of one order of the group, shaped as the pool's driver reports one, so callers read it the same way. */
function groupError(r: Record<string, unknown>): Error {
  const message = String(r.errMessage ?? "");
  const err = Object.assign(new Error(r.errConstraint ? `${message} (${String(r.errConstraint)})` : message), {
    code: String(r.errState),
    constraint: r.errConstraint ?? undefined,
  });
  // place_order's RAISE carries our code as its whole message (refusal reads it exactly).
  return refusal(Object.assign(new Error(message), { code: err.code })) ?? err;
}

// createdAt as timestamptz, as in place-order.ts (both drivers read the same instant).
const PLACE_ORDERS_SQL = `
  SELECT "i", "orderId", "createdAt" AT TIME ZONE 'UTC' AS "createdAt", "unitPriceCents", "keyId", "keyCiphertext",
         "errState", "errMessage", "errConstraint"
  FROM place_orders($1::jsonb)`;
