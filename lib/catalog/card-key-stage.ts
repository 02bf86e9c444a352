import { once } from "node:events";
import { finished } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { copyLine } from "./card-key-copy-line";
import type { Tx } from "../db/tx";

// Issue 13.3: card keys enter stock at tens of thousands per second. Each key
// is fingerprinted (HMAC) and encrypted (AES-GCM) here, as before, then
// streamed with COPY into a temporary table of the import's own transaction;
// one INSERT … SELECT … ON CONFLICT DO NOTHING then moves the new ones into
// "CardKey", so statement-level triggers on "CardKey" fire as for any insert
// (decision 0020). The caller validates keys against the delivery format first.

const FLUSH_BYTES = 256 * 1024;

export interface MovedKeys {
  /** Rows inserted into "CardKey": keys new to their SKU, once each. */
  added: number;
  /** The batch made for each SKU that received keys: sku id → batch id. */
  batches: Map<number, number>;
}

export class CardKeyStage {
  private copy: NodeJS.WritableStream | undefined;
  private buffer = Buffer.allocUnsafe(FLUSH_BYTES);
  private used = 0;
  /** Keys staged so far (before de-duplication). */
  count = 0;

  private constructor(private readonly conn: pg.PoolClient, private readonly tx: Tx) {}

  /** Creates the staging tables on the transaction's connection `conn` (dropped at its end). */
  static async open(conn: pg.PoolClient, tx: Tx): Promise<CardKeyStage> {
    // Local buffers for temporary tables, set before the session's first use:
    // a million staged keys (~200 MB) stay in memory instead of spilling to files.
    await conn.query(`SET temp_buffers = '256MB'; CREATE TEMP TABLE card_key_stage (sku_code text NOT NULL, fingerprint text NOT NULL, ciphertext bytea NOT NULL) ON COMMIT DROP;
      CREATE TEMP TABLE card_key_stage_batch (sku_id int PRIMARY KEY, batch_id int NOT NULL) ON COMMIT DROP`);
    return new CardKeyStage(conn, tx);
  }

  /** Stages one checked (trimmed) key for the SKU `skuCode`; resolves when the COPY can take more. */
  async add(skuCode: string, key: string): Promise<void> {
    // Straight into bytes: strings held until a flush would outlive the young
    // generation and pile up as old garbage (the CLI must stay under 300 MB).
    const line = copyLine(skuCode, key);
    if (this.used + line.length > this.buffer.length) await this.flush();
    this.used += this.buffer.write(line, this.used, "latin1");
    this.count++;
  }

  private async flush(): Promise<void> {
    if (!this.used) return;
    this.copy ??= this.conn.query(copyFrom("COPY card_key_stage (sku_code, fingerprint, ciphertext) FROM STDIN"));
    const ok = this.copy.write(this.buffer.subarray(0, this.used));
    this.buffer = Buffer.allocUnsafe(FLUSH_BYTES);
    this.used = 0;
    if (!ok) await once(this.copy, "drain");
  }

  /**
   * Ends the COPY. Call it before the transaction runs any other statement:
   * the connection serves nothing else while a COPY is open.
   */
  async endCopy(): Promise<void> {
    await this.flush();
    if (!this.copy) return;
    const copy = this.copy;
    this.copy = undefined;
    copy.end();
    await finished(copy);
  }

  /**
   * Ends the COPY and moves the staged keys into "CardKey": one CardKeyBatch
   * per SKU that gets new keys (keyCount = its distinct new keys), then ONE
   * INSERT … SELECT. Keys the SKU already holds, or that repeat, are skipped
   * by the unique (skuId, fingerprint) index. Staged SKU codes must exist.
   */
  async moveInto({ source, adminUserId = null }: { source: string; adminUserId?: number | null }): Promise<MovedKeys> {
    await this.endCopy();
    if (!this.count) return { added: 0, batches: new Map() };
    // A temporary table has no statistics until analysed; the planner would guess it tiny.
    await this.conn.query("ANALYZE card_key_stage");
    await this.tx.$executeRawUnsafe(`
      WITH fresh AS (
        SELECT k.id AS sku_id, count(DISTINCT s.fingerprint)::int AS n
        FROM card_key_stage s JOIN "Sku" k ON k."skuCode" = s.sku_code
        WHERE NOT EXISTS (SELECT 1 FROM "CardKey" c WHERE c."skuId" = k.id AND c.fingerprint = s.fingerprint)
        GROUP BY k.id
      ), made AS (
        INSERT INTO "CardKeyBatch" ("skuId", source, "keyCount", "adminUserId")
        SELECT sku_id, $1, n, $2 FROM fresh ORDER BY sku_id
        RETURNING id, "skuId"
      )
      INSERT INTO card_key_stage_batch (sku_id, batch_id) SELECT "skuId", id FROM made`, source, adminUserId);
    const added = await this.tx.$executeRawUnsafe(`
      INSERT INTO "CardKey" ("skuId", fingerprint, ciphertext, "batchId")
      SELECT b.sku_id, s.fingerprint, s.ciphertext, b.batch_id
      FROM card_key_stage s JOIN "Sku" k ON k."skuCode" = s.sku_code JOIN card_key_stage_batch b ON b.sku_id = k.id
      ON CONFLICT ("skuId", fingerprint) DO NOTHING`);
    const rows = await this.tx.$queryRawUnsafe<{ sku_id: number; batch_id: number }[]>("SELECT sku_id, batch_id FROM card_key_stage_batch");
    await this.conn.query("TRUNCATE card_key_stage, card_key_stage_batch");
    this.count = 0;
    return { added, batches: new Map(rows.map((r) => [r.sku_id, r.batch_id])) };
  }
}
