import { onPool } from "../db/sql-rows";
import { notePicked, pickAfter, placedFromRows, placeOrder, refusal, type PlacedOrder, type PlaceOrderRow } from "./place-order";

/**
 * placeOrder on the pool for an order that needs no app-made rows, with
 * orders that arrive together written together (issue 28.1,
 * docs/decisions/0045-order-speed.md).
 *
 * An order's debit locks its buyer's "User" row until the order commits,
 * WAL flush included, so one buyer's orders passed one commit flush at a
 * time; and each order of any buyer paid a transaction of its own. Here at
 * most LANES statements run at once. An order that finds a lane free and no
 * statement of its buyer running goes to place_order at once, alone, as
 * before. Otherwise it waits here, and the next lane to free takes up to
 * MAX_GROUP waiting orders, in arrival order, of buyers with no statement
 * running (so a buyer's row is only ever waited for in one lane: no lock
 * waits between lanes on it), as ONE place_orders statement
 * (prisma/migrations/20261127100000_order_speed): each order written by
 * place_order in a block of its own, one transaction and one commit flush
 * for all. Each order keeps its own refusal or error (a rolled-back block
 * writes nothing) and its own result. A request is answered only after the
 * transaction holding its order committed, so a crash before that loses the
 * whole group and every client, told nothing, retries with its
 * downstream_order_no (D18): exactly once as before.
 *
 * Grouping is per process; between app instances PostgreSQL's row locks
 * order them as before.
 */
export function placeOrderGrouped(row: PlaceOrderRow): Promise<PlacedOrder | null> {
  return new Promise((resolve, reject) => {
    waiting.push({ row, resolve, reject, tries: 0 });
    pump();
  });
}

/**
 * Statements in flight at once: enough to keep 2 cores of PostgreSQL busy, few
 * enough that each gathers a group (4 made smaller groups and more commit
 * flushes, the largest wait left: docs/benchmarks.md).
 */
const LANES = 2;
/**
 * At most 16 orders a statement: each uses at most two subtransactions (its
 * block, and place_order's pick when it takes several keys), and a backend
 * keeps 64 in its cache; beyond that every snapshot in the database gets
 * slower (suboverflow).
 */
const MAX_GROUP = 16;
/**
 * A statement can wait on a row lock another transaction holds (a SKU's stock
 * row during an import, a key being delivered elsewhere). So that such
 * statements do not hold up every other buyer's orders, a lane whose
 * statement has run STALL_MS no longer counts against LANES: another opens,
 * up to MAX_LANES in all.
 */
const STALL_MS = 200;
const MAX_LANES = 16;
/**
 * An order whose block a group statement rolled back for a lock goes again,
 * ALONE (decision 0058). A group holds the keys its earlier blocks took while
 * a later block waits for a key another transaction took: when a SKU's last
 * keys are fought over (issue 26.2: keys running out, an upstream source
 * behind them), or two SKUs of limited stock are taken in opposite orders,
 * groups wait for each other. PostgreSQL failed one after 1 s (40P01), and put
 * back into the next group the same order met the same cycle three times
 * running (1 order in 150 failed). Now a group's block never waits for a key
 * (FOR UPDATE NOWAIT), waits at most 200 ms for any other lock (place_orders'
 * lock_timeout), fails with 55P03 instead, and the order then goes in a
 * statement of its own, which holds no other order's key while it waits. That
 * one is also tried again after a deadlock: it wrote nothing.
 */
const RETRIED_STATES = new Set(["40P01", "40001", "55P03"]);
const MAX_TRIES = 3;

interface Waiting {
  row: PlaceOrderRow;
  resolve: (placed: PlacedOrder | null) => void;
  reject: (err: unknown) => void;
  tries: number;
  /** Rolled back for a lock in a group: its next statement is its own. */
  alone?: boolean;
}

/** Statements of more than one order, the orders in them, and those with more than one buyer, since start (tests read them). */
export const groupStats = { statements: 0, orders: 0, severalBuyers: 0 };

const waiting: Waiting[] = [];
/** Buyers with a statement in flight. */
const busy = new Set<string>();
/** The statements in flight, by when each started (Date.now()). */
const lanes = new Set<{ at: number }>();
let stallTimer: NodeJS.Timeout | undefined;

function pump(): void {
  while (freeLanes(Date.now()) > 0) {
    const group = takeGroup();
    if (group.length === 0) break;
    const buyers = new Set(group.map((w) => w.row.userId));
    for (const b of buyers) busy.add(b);
    const lane = { at: Date.now() };
    lanes.add(lane);
    void placeGroup(group).finally(() => {
      lanes.delete(lane);
      for (const b of buyers) busy.delete(b);
      pump();
    });
  }
  // An order that could go (its buyer has nothing in flight) waits for a
  // lane: look again when the first running statement counts as stalled.
  // Orders of busy buyers need no timer: their statement ends with a pump.
  const young = [...lanes].filter((l) => Date.now() - l.at < STALL_MS);
  if (!stallTimer && young.length > 0 && lanes.size < MAX_LANES && waiting.some((w) => !busy.has(w.row.userId))) {
    const first = Math.min(...young.map((l) => l.at));
    stallTimer = setTimeout(
      () => {
        stallTimer = undefined;
        pump();
      },
      Math.max(1, first + STALL_MS - Date.now()),
    );
    stallTimer.unref();
  }
}

/** Lanes that may open now: LANES minus those running under STALL_MS, within MAX_LANES. */
function freeLanes(now: number): number {
  let young = 0;
  for (const l of lanes) if (now - l.at < STALL_MS) young++;
  return Math.min(LANES - young, MAX_LANES - lanes.size);
}

/** The oldest waiting orders of buyers with nothing in flight, up to MAX_GROUP (an order to go alone: by itself), removed from the queue. */
function takeGroup(): Waiting[] {
  const group: Waiting[] = [];
  for (let i = 0; i < waiting.length && group.length < MAX_GROUP;) {
    const w = waiting[i];
    if (busy.has(w.row.userId) || (w.alone && group.length > 0)) i++;
    else if (w.alone) return waiting.splice(i, 1);
    else group.push(...waiting.splice(i, 1));
  }
  return group;
}

/** Settles every order of the group (or queues it again after a deadlock); never throws. */
async function placeGroup(group: Waiting[]): Promise<void> {
  if (group.length === 1) {
    const [one] = group;
    await placeOrder(onPool, one.row).then(one.resolve, (err: unknown) => {
      if (RETRIED_STATES.has(String((err as { code?: unknown }).code)) && ++one.tries < MAX_TRIES)
        waiting.unshift(Object.assign(one, { alone: true }));
      else one.reject(err);
    });
    return;
  }
  groupStats.statements++;
  groupStats.orders += group.length;
  if (new Set(group.map((w) => w.row.userId)).size > 1) groupStats.severalBuyers++;
  let rows: Record<string, unknown>[];
  try {
    rows = await onPool(
      PLACE_ORDERS_SQL,
      [
        JSON.stringify(
          group.map((w) => ({
            ...w.row,
            pickAfter: w.row.pickAfter ?? pickAfter(w.row.skuId),
            maxTotalCents: w.row.maxTotalCents == null ? null : String(w.row.maxTotalCents),
          })),
        ),
      ],
      "place_orders",
    );
  } catch (err) {
    for (const w of group) w.reject(err);
    return;
  }
  group.forEach((w, i) => {
    const mine = rows.filter((r) => Number(r.i) === i);
    const failed = mine.find((r) => r.errState != null);
    if (!failed) w.resolve(notePicked(w.row.skuId, placedFromRows(mine)));
    else if (RETRIED_STATES.has(String(failed.errState)) && ++w.tries < MAX_TRIES) waiting.unshift(Object.assign(w, { alone: true }));
    else w.reject(groupError(failed));
  });
}

/** The error of one order of the group, shaped as the pool's driver reports one, so callers read it the same way. */
function groupError(r: Record<string, unknown>): Error {
  const message = (r.errMessage as string | null) ?? "";
  const code = String(r.errState);
  // place_order's RAISE carries our code as its whole message (refusal reads it exactly).
  const known = refusal(Object.assign(new Error(message), { code }));
  if (known) return known;
  // The constraint's name in the message: createOrder recognises an order-number collision by it.
  return Object.assign(new Error(r.errConstraint ? `${message} (${r.errConstraint as string})` : message), { code });
}

// createdAt as timestamptz, as in place-order.ts (both drivers read the same instant).
const PLACE_ORDERS_SQL = `
  SELECT "i", "orderId", "createdAt" AT TIME ZONE 'UTC' AS "createdAt", "unitPriceCents", "keyId", "keyCiphertext", "priceRule",
         "errState", "errMessage", "errConstraint"
  FROM place_orders($1::jsonb)`;
