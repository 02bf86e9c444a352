import { once } from "node:events";
import { finished } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { BATCH_ID_AT, COPY_HEADER, COPY_TRAILER, copyRowLength, writeCopyRow } from "./card-key-copy-line";
import { makeBatches, moveChunk, moveLater, settleBatches, STAGE_TABLES, type BatchOptions } from "./card-key-move";

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
 * moving, one filling), ~10 MB outside the heap. Smaller chunks shorten the
 * wait for the last one's move after the file ends; each chunk costs a few
 * statements (measured: 25,000 moved in ~0.8 s at load 1).
 */
const CHUNK_KEYS = 25_000;

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
  /** Rows of the chunk with a known SKU: where their batch_id goes (buffer, offset) and their sku id. */
  private rowBuffer: Int32Array;
  private rowAt: Int32Array;
  private rowSku: Int32Array;
  private rows = 0;
  private chunkFilled = 0;
  /** The chunk has keys of SKUs unknown when the stage opened (the import creates them). */
  private chunkLater = false;
  private laterCodes = new Set<string>();
  /** sku id → its batch of this import; batch id → keys it added so far. */
  private batchOf = new Map<number, number>();
  private addedTo = new Map<number, number>();
  /** The COPY and move of the previous chunk, running on the connection. */
  private moving: Promise<void> | undefined;
  /** Keys staged so far (before de-duplication). */
  count = 0;

  private constructor(
    private readonly conn: pg.PoolClient,
    private readonly batch: BatchOptions,
    private readonly skuIds: Map<string, number>,
    private readonly chunkKeys: number,
  ) {
    [this.rowBuffer, this.rowAt, this.rowSku] = [0, 0, 0].map(() => new Int32Array(chunkKeys));
  }

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
    return new CardKeyStage(conn, batch, new Map(rows.map((r) => [r.sku_code, r.id])), chunkKeys);
  }

  /** Stages one checked (trimmed) key for the SKU `skuCode`; resolves when the stage can take more. */
  async add(skuCode: string, key: string): Promise<void> {
    const skuId = this.skuIds.get(skuCode);
    // Straight into bytes: strings held until a flush would outlive the young
    // generation and pile up as old garbage (the CLI must stay under 300 MB).
    const size = copyRowLength(skuCode, key);
    if (this.used + size > this.buffer.length) {
      this.chunk.push(this.buffer.subarray(0, this.used));
      this.buffer = Buffer.allocUnsafe(Math.max(BUFFER_BYTES, size));
      this.used = 0;
    }
    if (skuId === undefined) {
      this.chunkLater = true;
      this.laterCodes.add(skuCode);
    } else {
      this.rowBuffer[this.rows] = this.chunk.length;
      this.rowAt[this.rows] = this.used + BATCH_ID_AT;
      this.rowSku[this.rows++] = skuId;
    }
    this.used = writeCopyRow(this.buffer, this.used, skuId, skuCode, key);
    this.count++;
    if (++this.chunkFilled >= this.chunkKeys) await this.ship();
  }

  /**
   * Waits for the previous chunk, makes the batches of SKUs new to this
   * import, writes each row's batch id, then starts the COPY and move of this
   * chunk without waiting for it.
   */
  private async ship(): Promise<void> {
    await this.moving;
    if (this.used) this.chunk.push(this.buffer.subarray(0, this.used));
    const chunk = this.chunk;
    const flags = { now: this.rows > 0, later: this.chunkLater };
    const fresh = new Set<number>();
    for (let i = 0; i < this.rows; i++) if (!this.batchOf.has(this.rowSku[i])) fresh.add(this.rowSku[i]);
    if (fresh.size) for (const [sku, id] of await makeBatches(this.conn, this.batch, [...fresh])) this.batchOf.set(sku, id);
    for (let i = 0; i < this.rows; i++) chunk[this.rowBuffer[i]].writeInt32BE(this.batchOf.get(this.rowSku[i])!, this.rowAt[i]);
    this.chunk = [];
    this.buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    this.used = this.rows = this.chunkFilled = 0;
    this.chunkLater = false;
    if (!chunk.length) return void (this.moving = undefined);
    this.moving = this.copyAndMove(chunk, flags);
    this.moving.catch(() => undefined); // awaited (and thrown) by the next ship or drain
  }

  private async copyAndMove(chunk: Buffer[], flags: { now: boolean; later: boolean }): Promise<void> {
    const copy = this.conn.query(copyFrom("COPY card_key_stage (sku_id, batch_id, sku_code, fingerprint, ciphertext) FROM STDIN (FORMAT binary)"));
    for (const buf of [COPY_HEADER, ...chunk, COPY_TRAILER]) if (!copy.write(buf)) await once(copy, "drain");
    copy.end();
    await finished(copy);
    this.tally(await moveChunk(this.conn, flags));
  }

  private tally(moved: { batch_id: number; n: number }[]): void {
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
   * Drains, moves the keys of SKUs made since the stage opened (they exist by
   * now) and counts each SKU's batch (deleting those that got no key). Keys
   * the SKU already holds, or that repeat, were skipped. Staged SKU codes
   * must exist by now.
   */
  async moveInto(): Promise<MovedKeys> {
    await this.drain();
    if (this.laterCodes.size) {
      const later = await moveLater(this.conn, this.batch, [...this.laterCodes]);
      for (const [sku, id] of later.batches) this.batchOf.set(sku, id);
      this.tally(later.moved);
    }
    for (const id of this.batchOf.values()) if (!this.addedTo.has(id)) this.addedTo.set(id, 0);
    await settleBatches(this.conn, this.addedTo);
    let added = 0;
    const batches = new Map<number, number>();
    for (const [sku, id] of this.batchOf) {
      const n = this.addedTo.get(id)!;
      added += n;
      if (n) batches.set(sku, id);
    }
    this.laterCodes.clear();
    this.batchOf.clear();
    this.addedTo.clear();
    this.count = 0;
    return { added, batches };
  }
}
