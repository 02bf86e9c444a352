import { once } from "node:events";
import { finished } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { COPY_HEADER, COPY_TRAILER, copyRowLength, writeCopyRow } from "./card-key-copy-line";
import { moveChunk, moveLater, settleBatches, STAGE_TABLES, type BatchOptions } from "./card-key-move";

// Issue 13.3: card keys enter stock at tens of thousands per second. Each key
// is fingerprinted (HMAC) and encrypted (AES-GCM) here, as before, and
// written as a COPY row into the chunk being filled. A full chunk is COPYed
// into a temporary table of the import's own transaction and moved into
// "CardKey" (card-key-move.ts) while the next chunk is read, checked and
// sealed: PostgreSQL inserts on one core while the CLI seals on the other,
// in ONE transaction (decision 0020). The caller validates keys first.

const BUFFER_BYTES = 256 * 1024;
/**
 * Keys per chunk. About 190 bytes a row: at most two chunks are held (one
 * moving, one filling), ~20 MB outside the heap, against the CLI's 300 MB.
 */
const CHUNK_KEYS = 50_000;

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
  /** The chunk has keys of SKUs that existed when the stage opened, of others (so has the import). */
  private chunkNow = false;
  private chunkLater = false;
  private anyLater = false;
  /** The COPY and move of the previous chunk, running on the connection. */
  private moving: Promise<void> | undefined;
  /** Keys staged so far (before de-duplication). */
  count = 0;

  private constructor(
    private readonly conn: pg.PoolClient,
    private readonly batch: BatchOptions,
    private readonly skuIds: Map<string, number>,
    private readonly chunkKeys: number,
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
    return new CardKeyStage(conn, batch, new Map(rows.map((r) => [r.sku_code, r.id])), chunkKeys);
  }

  /** Stages one checked (trimmed) key for the SKU `skuCode`; resolves when the stage can take more. */
  async add(skuCode: string, key: string): Promise<void> {
    const skuId = this.skuIds.get(skuCode);
    if (skuId === undefined) this.chunkLater = true;
    else this.chunkNow = true;
    // Straight into bytes: strings held until a flush would outlive the young
    // generation and pile up as old garbage (the CLI must stay under 300 MB).
    const size = copyRowLength(skuCode, key);
    if (this.used + size > this.buffer.length) {
      this.chunk.push(this.buffer.subarray(0, this.used));
      this.buffer = Buffer.allocUnsafe(Math.max(BUFFER_BYTES, size));
      this.used = 0;
    }
    this.used = writeCopyRow(this.buffer, this.used, skuId, skuCode, key);
    this.count++;
    if (++this.chunkFilled >= this.chunkKeys) await this.ship();
  }

  /** Waits for the previous chunk, then starts the COPY and move of this one without waiting for it. */
  private async ship(): Promise<void> {
    await this.moving;
    if (this.used) this.chunk.push(this.buffer.subarray(0, this.used));
    const chunk = this.chunk;
    const flags = { now: this.chunkNow, later: this.chunkLater };
    this.anyLater ||= flags.later;
    this.chunk = [];
    this.buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    this.used = 0;
    this.chunkFilled = 0;
    this.chunkNow = this.chunkLater = false;
    if (!chunk.length) return void (this.moving = undefined);
    this.moving = this.copyAndMove(chunk, flags);
    this.moving.catch(() => undefined); // awaited (and thrown) by the next ship or drain
  }

  private async copyAndMove(chunk: Buffer[], flags: { now: boolean; later: boolean }): Promise<void> {
    const copy = this.conn.query(copyFrom("COPY card_key_stage (sku_id, sku_code, fingerprint, ciphertext) FROM STDIN (FORMAT binary)"));
    for (const buf of [COPY_HEADER, ...chunk, COPY_TRAILER]) if (!copy.write(buf)) await once(copy, "drain");
    copy.end();
    await finished(copy);
    await moveChunk(this.conn, this.batch, flags);
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
   * now) and counts each SKU's batch. Keys the SKU already holds, or that
   * repeat, were skipped. Staged SKU codes must exist by now.
   */
  async moveInto(): Promise<MovedKeys> {
    await this.drain();
    if (this.anyLater) await moveLater(this.conn, this.batch);
    this.anyLater = false;
    this.count = 0;
    return settleBatches(this.conn);
  }
}
