import { SYSTEM_ACTOR } from "../audit/actor";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { decryptText, fingerprint } from "../crypto/secret-box";
import { db } from "../db/client";
import { useTestDatabase } from "../testing/test-database";
import { importCatalogFile } from "./import-catalog-file";
import { readCatalogFile } from "./validate-catalog-file";

// Issue 13.3: `catalog:import` reads the file as a stream and writes card keys
// by COPY into a staging table and one INSERT … SELECT (decision 0020). Still
// checked against the delivery format (D14), de-duplicated, encrypted, and
// all-or-nothing with the messages of the in-memory reader.

const lang = (s: string) => ({ "zh-CN": s, en: s });
const file = (products: unknown[], extra: Record<string, unknown> = {}) => ({
  categories: [{ slug: "str-cat", name: lang("Stream"), sort_order: 0, parent: null }],
  products,
  ...extra,
});
const auto = (slug: string, skus: { sku_code: string; card_keys: unknown[] }[]) => ({
  slug,
  category: "str-cat",
  title: lang(slug),
  fulfillment_type: "auto",
  delivery_format: "account_password",
  price_amount: "1.00",
  skus,
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-stream-"));
let n = 0;
function write(content: unknown): string {
  const p = path.join(dir, `f${n++}.json`);
  fs.writeFileSync(p, typeof content === "string" ? content : JSON.stringify(content, null, 1));
  return p;
}

/** The error the stream import throws, and the one readCatalogFile gives for the same text. */
async function bothErrors(content: unknown): Promise<[string, string]> {
  const p = write(content);
  const streamed = await importCatalogFile({ path: p, actor: SYSTEM_ACTOR }).then(
    () => "accepted",
    (err: Error & { publicMessage?: string }) => err.publicMessage ?? String(err),
  );
  let inMemory = "accepted";
  try {
    readCatalogFile(fs.readFileSync(p, "utf8"));
  } catch (err) {
    inMemory = (err as { publicMessage: string }).publicMessage;
  }
  return [streamed, inMemory];
}

const counts = async () => ({
  keys: await db().cardKey.count(),
  batches: await db().cardKeyBatch.count(),
  products: await db().product.count(),
});

describe("catalog:import read as a stream", () => {
  beforeAll(async () => {
    await useTestDatabase();
    // What a statement-level trigger with a transition table sees (how stock changes are tracked).
    await db().$executeRawUnsafe(`CREATE TABLE card_key_insert_log (rows int NOT NULL)`);
    await db().$executeRawUnsafe(`CREATE FUNCTION log_card_key_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO card_key_insert_log SELECT count(*) FROM new_rows; RETURN NULL; END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER card_key_insert_log AFTER INSERT ON "CardKey" REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION log_card_key_insert()`);
    // Moves run in replica mode (decision 0024): a trigger that must see imported keys is enabled ALWAYS, as the journal's are.
    await db().$executeRawUnsafe(`ALTER TABLE "CardKey" ENABLE ALWAYS TRIGGER card_key_insert_log`);
  });

  it("issue 13.3: imports keys checked, de-duplicated within the file and against held keys, encrypted, through one INSERT that fires CardKey's triggers", async () => {
    const first = await importCatalogFile({
      path: write(
        file([
          auto("str-a", [
            { sku_code: "STR-A1", card_keys: ["u1----p1", " u2----p2 ", "u2----p2", "u1----p1"] },
            { sku_code: "STR-A2", card_keys: ["u1----p1"] }, // the same key in another SKU is another key
          ]),
        ]),
      ),
      actor: SYSTEM_ACTOR,
    });
    expect(first).toMatchObject({ productsCreated: 1, skusCreated: 2, cardKeysAdded: 3, cardKeysSkipped: 2 });
    expect(await db().$queryRawUnsafe(`SELECT rows FROM card_key_insert_log`)).toEqual([{ rows: 3 }]);

    const second = await importCatalogFile({
      path: write(
        file([
          auto("str-a", [
            { sku_code: "STR-A1", card_keys: ["u2----p2", "u3----p3"] },
            { sku_code: "STR-A2", card_keys: ["u1----p1"] },
          ]),
        ]),
      ),
      actor: SYSTEM_ACTOR,
    });
    expect(second).toMatchObject({ productsCreated: 0, productsUpdated: 0, cardKeysAdded: 1, cardKeysSkipped: 2 });

    const a1 = await db().sku.findUniqueOrThrow({
      where: { skuCode: "STR-A1" },
      include: { cardKeys: { orderBy: { id: "asc" } }, batches: { orderBy: { id: "asc" } } },
    });
    // Trimmed as checked (D14), stored encrypted, fingerprinted with the keyed HMAC.
    expect(a1.cardKeys.map((k) => decryptText(k.ciphertext))).toEqual(["u1----p1", "u2----p2", "u3----p3"]);
    for (const k of a1.cardKeys) {
      expect(Buffer.from(k.ciphertext).toString("utf8")).not.toContain("----p");
      expect(k.fingerprint).toBe(fingerprint(decryptText(k.ciphertext)));
    }
    // One batch per import that added keys to the SKU, counting the keys it added.
    expect(a1.batches.map((b) => [b.source, b.keyCount])).toEqual([
      ["import", 2],
      ["import", 1],
    ]);
    expect(a1.cardKeys.map((k) => k.batchId)).toEqual([a1.batches[0].id, a1.batches[0].id, a1.batches[1].id]);
  });

  it("issue 13.3: a bad key anywhere rejects the whole file with readCatalogFile's message and writes nothing", async () => {
    const before = await counts();
    const many = Array.from({ length: 30 }, (_, i) => `user${i}----pass${i}`);
    const cases = [
      // The bad key comes after thousands of good ones and another product.
      file([
        auto("str-new", [{ sku_code: "STR-N1", card_keys: many }]),
        auto("str-b", [{ sku_code: "STR-B1", card_keys: [...many.map((k) => `b${k}`), "SECRET-NO-DELIMITER"] }]),
      ]),
      file([auto("str-c", [{ sku_code: "STR-C1", card_keys: Array.from({ length: 25 }, (_, i) => `SECRET-${i}`) }])]), // "… and 5 more"
      file([{ ...auto("str-d", [{ sku_code: "STR-D1", card_keys: ["k"] }]), fulfillment_type: "manual" }]),
      file([auto("str-e", [{ sku_code: "STR-E1", card_keys: ["a----b", 7] }])]),
      file([auto("str-f", [{ sku_code: "STR-F1", card_keys: ["a----b"] }]), auto("str-f", [{ sku_code: "STR-F1", card_keys: [] }])]),
      file([auto("str-g", [{ sku_code: "STR-G1", card_keys: ["a----b"] }])], { colour: "red" }),
      { categories: [], products: 5 },
      [1, 2],
      '{\n  "categories": [],\n  "products": [,]\n}',
      '{"products": [{"card_keys": ["SECRET-NO-DELIMITER" "x"]}]}',
      '{"products": [{"slug": "str-h", "skus": [{"card_keys": ["SECRET-UNTERMINATED',
    ];
    for (const content of cases) {
      const [streamed, inMemory] = await bothErrors(content);
      expect(streamed).toMatch(/nothing was imported|not valid JSON/);
      expect(streamed).toBe(inMemory);
      expect(streamed).not.toContain("SECRET");
    }
    expect(await counts()).toEqual(before);
  });
});
