import { finished } from "node:stream/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { COPY_HEADER, COPY_TRAILER, copyRowLength, writeCopyRow } from "./card-key-copy-line";
import { makeBatches, maySkipRowChecks, moveChunk, restageLater, settleBatches, STAGE_TABLES, type BatchOptions } from "./card-key-move";

// Issue 13.3: card keys enter stock at tens of thousands per second. Each key
// is fingerprinted (HMAC) and encrypted (AES-GCM) here, as before, and
// written as a COPY row into the chunk being filled. A full chunk is COPYed
// into a temporary table of the import's own transaction and moved into
// "CardKey" (card-key-move.ts) while the next chunk is read, checked and
// sealed: PostgreSQL inserts on one core while the CLI seals on the other,
// in ONE transaction (decision 0020). The caller validates keys first.

const BUFFER_BYTES = 256 * 1024;
/**
 * Keys per chunk. About 200 bytes a row: at most two chunks are held (one
 * moving, one filling), ~20 MB outside the heap. 25,000 and 100,000 measured
 * the same within the machine's noise (a move costs per key, not per chunk).
 */
const CHUNK_KEYS = 50_000;
/**
 * While a chunk is on the connection, the stage lets the event loop turn
 * after this many keys (about a millisecond of sealing). Sealing is
 * synchronous from one file read to the next, and the COPY's bytes go out
 * and each statement's answer comes in only when the loop turns: without
 * these turns PostgreSQL waited for the CLI, not the CLI for PostgreSQL (a
 * 50,000-key COPY took 300 ms instead of 40, a batch probe 100 ms instead of
 * 10, and the 1,000,000-key import 23-27 s instead of 21-22).
 */
const TURN_EVERY = 128;

export interface MovedKeys {
  /** Rows inserted into "CardKey": keys new to their SKU, once each. */
  added: number;
  /** The batch made for each SKU that received keys: sku id → batch id. */
  batches: Map<number, number>;
}

export class CardKeyStage {
  /** Full 256 KB buffers of the chunk being filled, and the one being written into. */
  private chunk: Buffer[] = [];
  private buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  private chunkFilled = 0;
  /** The chunk has keys of SKUs that the import creates. */
  private chunkLater = false;
  private laterCodes = new Set<string>();
  /** Slots of the SKUs with keys in the chunk being filled; the chunk each slot was last seen in. */
  private chunkSlots: number[] = [];
  private seenIn: number[] = [];
  private chunkNo = 1;
  /** Each SKU of the import: its slot (1, 2, …, card-key-move.ts); batchIds[slot - 1]: its batch, 0 for none yet. */
  private slots = new Map<number, { id: number; slot: number }>();
  private batchIds: number[] = [];
  /** batch id → keys it added so far. */
  private addedTo = new Map<number, number>();
  /** The COPY and move of the previous chunk, running on the connection. */
  private moving: Promise<void> | undefined;
  /** `moving` has not settled yet. */
  private connectionBusy = false;
  /** Keys staged so far (before de-duplication). */
  count = 0;
  /**
   * Keys of SKUs that do not exist yet are not staged but left for a second
   * read of the file, after the catalogue rows are written (decision 0096).
   */
  deferNew = false;

  private constructor(
    private readonly conn: pg.PoolClient,
    private readonly batch: BatchOptions,
    private readonly skuIds: Map<string, number>,
    private readonly chunkKeys: number,
    /** Moves skip the per-row foreign-key checks (decision 0024). */
    private readonly skipRowChecks: boolean,
  ) {}

  /**
   * Creates the staging tables on the transaction's connection `conn`, and
   * reads every SKU's id once so staged rows carry it (no join per key).
   */
  static async open(conn: pg.PoolClient, batch: BatchOptions, chunkKeys = CHUNK_KEYS): Promise<CardKeyStage> {
    // temp_buffers before the session's first temporary table: keys of SKUs
    // the file creates wait in memory, not in files, until the end.
    // work_mem: each chunk's transition table ("CardKey" triggers) stays in memory.
    await conn.query(`SET temp_buffers = '256MB'; SET LOCAL work_mem = '64MB'; ${STAGE_TABLES}`);
    const { rows } = await conn.query<{ id: number; sku_code: string }>(`SELECT id, "skuCode" AS sku_code FROM "Sku"`);
    return new CardKeyStage(conn, batch, new Map(rows.map((r) => [r.sku_code, r.id])), chunkKeys, await maySkipRowChecks(conn));
  }

  /**
   * Stages one checked (trimmed) key for the SKU `skuCode`. Returns a promise
   * to wait for when the stage cannot take more yet, else nothing: a million
   * keys staged by an async method were a million promises and microtask turns.
   */
  add(skuCode: string, key: string): Promise<void> | undefined {
    const sku = this.slotOf(skuCode);
    const lead = sku !== undefined && this.seenIn[sku.slot] !== this.chunkNo;
    if (lead) {
      this.seenIn[sku.slot] = this.chunkNo;
      this.chunkSlots.push(sku.slot);
    }
    if (!sku) {
      this.laterCodes.add(skuCode);
      if (this.deferNew) return; // read again once the SKU exists (takeDeferred)
      this.chunkLater = true;
    }
    // Straight into bytes: strings held until a flush would outlive the young
    // generation and pile up as old garbage (the CLI must stay under 300 MB).
    const size = copyRowLength(skuCode, key);
    if (this.used + size > this.buffer.length) {
      this.chunk.push(this.buffer.subarray(0, this.used));
      this.buffer = Buffer.allocUnsafe(Math.max(BUFFER_BYTES, size));
      this.used = 0;
    }
    this.used = writeCopyRow(this.buffer, this.used, sku, lead, skuCode, key);
    this.count++;
    if (++this.chunkFilled >= this.chunkKeys) return this.ship();
    if (this.connectionBusy && this.count % TURN_EVERY === 0) return nextTurn();
  }

  private slotOf(skuCode: string): { id: number; slot: number } | undefined {
    const id = this.skuIds.get(skuCode);
    if (id === undefined) return undefined;
    let sku = this.slots.get(id);
    if (!sku) this.slots.set(id, (sku = { id, slot: this.batchIds.push(0) }));
    return sku;
  }

  /** Waits for the previous chunk, then starts the COPY and move of this one without waiting for it. */
  private async ship(): Promise<void> {
    await this.moving;
    if (this.used) this.chunk.push(this.buffer.subarray(0, this.used));
    const chunk = this.chunk;
    const flags = { slots: this.chunkSlots, later: this.chunkLater };
    this.chunk = [];
    this.buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    this.used = this.chunkFilled = 0;
    this.chunkSlots = [];
    this.chunkNo++;
    this.chunkLater = false;
    if (!chunk.length) return void (this.moving = undefined);
    this.moving = this.copyAndMove(chunk, flags);
    this.moving.catch(() => undefined); // awaited (and thrown) by the next ship or drain
  }

  private async copyAndMove(chunk: Buffer[], flags: { slots: number[]; later: boolean }): Promise<void> {
    this.connectionBusy = true;
    try {
      await this.copy(chunk);
      await this.move(flags);
    } finally {
      this.connectionBusy = false;
    }
  }

  private async copy(chunk: Buffer[]): Promise<void> {
    const copy = this.conn.query(
      copyFrom("COPY card_key_stage (sku_id, slot, lead, sku_code, fingerprint, ciphertext) FROM STDIN (FORMAT binary)"),
    );
    // The chunk is in memory already: waiting for "drain" after each buffer
    // only added event-loop round trips while the CLI seals (0.4 s a chunk).
    for (const buf of [COPY_HEADER, ...chunk, COPY_TRAILER]) copy.write(buf);
    copy.end();
    await finished(copy);
  }

  /** Makes the batches the staged keys need, moves them, counts what each batch got. */
  private async move({ slots, later }: { slots: number[]; later: boolean }): Promise<void> {
    const unbatched = () => slots.some((slot) => this.batchIds[slot - 1] === 0);
    for (const leadsOnly of [true, false]) {
      if (!unbatched()) break;
      for (const [sku, id] of await makeBatches(this.conn, this.batch, this.batchIds, leadsOnly))
        this.batchIds[this.slots.get(sku)!.slot - 1] = id;
    }
    const moved = await moveChunk(this.conn, this.batchIds, { now: slots.length > 0, later, skipRowChecks: this.skipRowChecks });
    for (const { batch_id, n } of moved) this.addedTo.set(batch_id, (this.addedTo.get(batch_id) ?? 0) + n);
  }

  /**
   * Stages and moves what is left; resolves when nothing runs on the
   * connection. Call it before the transaction runs any other statement.
   */
  async drain(): Promise<void> {
    await this.ship();
    await this.moving;
    this.moving = undefined;
  }

  /**
   * Decision 0096: the codes of the SKUs whose keys were deferred; they exist
   * now, so their ids are read and their keys, staged again, move into
   * "CardKey" chunk by chunk while the rest is read, as an existing SKU's do.
   */
  async takeDeferred(): Promise<Set<string>> {
    const codes = this.laterCodes;
    this.laterCodes = new Set();
    this.deferNew = false;
    const { rows } = await this.conn.query<{ id: number; sku_code: string }>(
      `SELECT id, "skuCode" AS sku_code FROM "Sku" WHERE "skuCode" = ANY($1::text[])`,
      [[...codes]],
    );
    for (const r of rows) this.skuIds.set(r.sku_code, r.id);
    return codes;
  }

  /**
   * Drains, moves the keys of SKUs made since the stage opened (they exist by
   * now) and counts each SKU's batch. Keys the SKU already holds, or that
   * repeat, were skipped. Staged SKU codes must exist by now.
   */
  async moveInto(): Promise<MovedKeys> {
    await this.drain();
    if (this.laterCodes.size) {
      const codes = [...this.laterCodes];
      const ids = await restageLater(this.conn, codes, this.batchIds.length + 1);
      const slots: number[] = [];
      for (const id of ids) {
        const slot = this.batchIds.push(0); // the slots restageLater gave, in order
        if (id) {
          this.slots.set(id, { id, slot });
          slots.push(slot);
        }
      }
      await this.move({ slots, later: false });
    }
    await settleBatches(this.conn, this.addedTo);
    let added = 0;
    const batches = new Map<number, number>();
    for (const { id, slot } of this.slots.values()) {
      const n = this.addedTo.get(this.batchIds[slot - 1]) ?? 0;
      added += n;
      if (n) batches.set(id, this.batchIds[slot - 1]);
    }
    this.laterCodes.clear();
    this.seenIn = [];
    this.slots.clear();
    this.batchIds = [];
    this.addedTo.clear();
    this.count = 0;
    return { added, batches };
  }
}
