import fs from "node:fs";
import { adminActor, type Actor, SYSTEM_ACTOR } from "../audit/actor";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing/test-database";
import { createAdmin } from "../admins/create-admin";
import { makeCategory, makeProduct } from "../testing/factories";
import { db } from "../db/client";
import { AppError } from "../errors";
import { confirmCardKeys } from "./confirm-card-keys";
import { previewCardKeys, splitCardKeyText } from "./preview-card-keys";
import { revealCardKey } from "./reveal-card-key";
import { saveCategory } from "./save-category";
import { saveProduct } from "./save-product";
import { saveSku } from "./save-sku";
import { readUpload } from "./read-upload";
import { saveUpload } from "./save-upload";
import { undoCardKeyBatch } from "./undo-card-key-batch";

// Issue 5, catalogue console services: the same rules as the import, bad
// input writes nothing, every change is audited, card keys are previewed
// (new / duplicate / malformed) before they are added, undo only while
// nothing of the batch was delivered, and a reveal is audited.

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
let admin: { actor: Actor };

async function audits(action: string) {
  return db().auditLog.findMany({ where: { action }, orderBy: { id: "asc" } });
}

describe("catalogue console services", () => {
  beforeAll(async () => {
    await useTestDatabase();
    process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-uploads-"));
    const row = await createAdmin({ email: `cat-${Date.now()}@example.com`, password: "a-test-password-123" }, { actor: SYSTEM_ACTOR });
    admin = { actor: adminActor({ id: row.id, ip: "127.0.0.1" }) };
  });

  it("saves categories with the import's slug rule, refuses cycles, and audits", async () => {
    const parent = await saveCategory({ slug: "games", name: { "zh-CN": "游戏", en: "Games" }, sortOrder: "2", parentId: null }, admin);
    const child = await saveCategory({ slug: "steam", name: { en: "Steam" }, sortOrder: 0, parentId: parent.id }, admin);
    await expect(saveCategory({ slug: "Bad Slug", name: { "zh-CN": "", en: "" }, sortOrder: 0, parentId: null }, admin)).rejects.toThrow(
      /slug/,
    );
    await expect(
      saveCategory({ id: parent.id, slug: "games", name: { "zh-CN": "", en: "" }, sortOrder: 0, parentId: child.id }, admin),
    ).rejects.toThrow(/under itself/);
    await expect(saveCategory({ slug: "games", name: { "zh-CN": "", en: "" }, sortOrder: 0, parentId: null }, admin)).rejects.toThrow(
      /already used/,
    );
    expect((await audits("category.create")).length).toBe(2);
    expect((await db().category.findUniqueOrThrow({ where: { id: parent.id } })).sortOrder).toBe(2);
  });

  it("saves a product with a validated manual form schema and a SKU with unlimited stock", async () => {
    const cat = await makeCategory();
    const base = {
      slug: "e2e-manual-topup",
      categoryId: cat.id,
      title: { "zh-CN": "话费", en: "Top-up" },
      description: { "zh-CN": "", en: "" },
      content: { "zh-CN": "", en: "**hi**" },
      fulfillmentType: "manual" as const,
      deliveryFormat: "text" as const,
      deliveryDelimiter: "----",
      price: "5.00",
      isActive: true,
      logo: "",
      images: [],
    };
    const bad = { fields: [{ key: "phone", type: "select", required: true }] };
    await expect(saveProduct({ ...base, manualFormSchema: bad as never }, admin)).rejects.toThrow(/needs options/);
    await expect(saveProduct({ ...base, price: "5.001", manualFormSchema: { fields: [] } }, admin)).rejects.toThrow(/price/);
    expect(await db().product.count({ where: { slug: base.slug } })).toBe(0);
    const good = { fields: [{ key: "phone", type: "phone" as const, required: true, regex: "^1\\d{10}$", min_len: 11, max_len: 11 }] };
    const { id } = await saveProduct({ ...base, manualFormSchema: good }, admin);
    const sku = await saveSku(
      { productId: id, skuCode: "TOPUP-5", specValues: { face: "5" }, price: "5.00", isActive: true, stockQuantity: null },
      admin,
    );
    const row = await db().sku.findUniqueOrThrow({ where: { id: sku.id }, include: { product: true } });
    expect(row.stockQuantity).toBeNull();
    expect((row.product.manualFormSchema as { fields: { key: string }[] }).fields[0].key).toBe("phone");
    expect((await audits("product.create")).length).toBe(1);
    expect((await audits("sku.create")).length).toBe(1);
  });

  it("previews new, duplicate and malformed keys, confirms one batch, and undoes it", async () => {
    const { sku } = await makeProduct({ deliveryFormat: "account_password", cardKeys: ["held----pw"] });
    const text = ["a1----p1", "a2----p2", "a1----p1", "held----pw", "no-delimiter", "", "x----"].join("\n");
    const preview = await previewCardKeys(sku.id, text, "txt");
    expect(preview).toMatchObject({ lines: 6, fresh: 2, duplicateExisting: 1, duplicateInUpload: 1, malformed: 2 });
    expect(JSON.stringify(preview.problems)).not.toContain("no-delimiter");
    expect(preview.problems.map((p) => p.line)).toEqual([5, 7]);
    await expect(confirmCardKeys({ skuId: sku.id, text, kind: "txt", source: "admin-paste", expectFresh: 3 }, admin)).rejects.toThrow(
      /preview again/,
    );
    const { batchId, preview: confirmed } = await confirmCardKeys(
      { skuId: sku.id, text, kind: "txt", source: "admin-paste", expectFresh: 2 },
      admin,
    );
    expect(confirmed).toEqual(preview);
    expect(await db().cardKey.count({ where: { batchId } })).toBe(2);
    const audit = (await audits("card_keys.import")).at(-1)!;
    expect(JSON.stringify(audit.details)).not.toMatch(/a1|p1|held/);
    expect(await undoCardKeyBatch(batchId, admin)).toEqual({ deleted: 2 });
    expect(await db().cardKey.count({ where: { skuId: sku.id } })).toBe(1);
    await expect(undoCardKeyBatch(batchId, admin)).rejects.toThrow(/already undone/);
  });

  it("a confirm whose keys changed since the preview, or that has none new, writes nothing (keys staged before the check roll back)", async () => {
    const { sku } = await makeProduct({ cardKeys: ["held-1"] });
    const text = "new-1\nnew-2\nnew-3\nheld-1";
    expect(await previewCardKeys(sku.id, text, "txt")).toMatchObject({ fresh: 3, duplicateExisting: 1 });
    const before = {
      keys: await db().cardKey.count({ where: { skuId: sku.id } }),
      batches: await db().cardKeyBatch.count({ where: { skuId: sku.id } }),
    };
    // Another upload adds one of the keys between the preview and the confirm.
    await confirmCardKeys({ skuId: sku.id, text: "new-2", kind: "txt", source: "admin-paste", expectFresh: 1 }, admin);
    await expect(confirmCardKeys({ skuId: sku.id, text, kind: "txt", source: "admin-paste", expectFresh: 3 }, admin)).rejects.toThrow(
      /2 new now, 3 previewed/,
    );
    expect(await db().cardKey.count({ where: { skuId: sku.id } })).toBe(before.keys + 1);
    expect(await db().cardKeyBatch.count({ where: { skuId: sku.id } })).toBe(before.batches + 1);
    await expect(
      confirmCardKeys({ skuId: sku.id, text: "held-1\nnew-2", kind: "txt", source: "admin-paste", expectFresh: 0 }, admin),
    ).rejects.toThrow(/no new keys/);
    expect(await db().cardKeyBatch.count({ where: { skuId: sku.id } })).toBe(before.batches + 1);
    expect(await db().auditLog.count({ where: { action: "card_keys.import", targetId: String(sku.id) } })).toBe(1);
  });

  it("refuses to undo a batch with a delivered key, and leaves it whole", async () => {
    const { sku } = await makeProduct();
    const { batchId } = await confirmCardKeys(
      { skuId: sku.id, text: "k-1\nk-2\nk-3", kind: "txt", source: "admin-paste", expectFresh: 3 },
      admin,
    );
    const one = await db().cardKey.findFirstOrThrow({ where: { batchId } });
    await db().cardKey.update({ where: { id: one.id }, data: { status: "delivered", deliveredAt: new Date() } });
    await expect(undoCardKeyBatch(batchId, admin)).rejects.toThrow(/already delivered/);
    expect(await db().cardKey.count({ where: { batchId } })).toBe(3);
  });

  it("reads the first CSV column, quoted or not", () => {
    expect(splitCardKeyText('key-1,note\n"key,2",x\n\n"say ""hi""",y', "csv").map((l) => l.raw)).toEqual(["key-1", "key,2", 'say "hi"']);
  });

  it("reveals one key with an audit row that does not contain it", async () => {
    const { sku } = await makeProduct({ cardKeys: ["REVEAL-ME-123"] });
    const key = await db().cardKey.findFirstOrThrow({ where: { skuId: sku.id } });
    expect(await revealCardKey(key.id, admin)).toBe("REVEAL-ME-123");
    const row = (await audits("card_key.reveal")).at(-1)!;
    expect(row.targetId).toBe(String(key.id));
    expect(JSON.stringify({ ...row, id: String(row.id) })).not.toContain("REVEAL-ME");
    await expect(revealCardKey(999_999_999n, admin)).rejects.toBeInstanceOf(AppError);
  });

  it("stores only images (in the database, issue 27.1) and serves no path outside /uploads/<name>", async () => {
    const p = await saveUpload(PNG);
    expect(p).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    expect((await readUpload([p.slice("/uploads/".length)]))?.contentType).toBe("image/png");
    await expect(saveUpload(Buffer.from("<svg onload=alert(1)>"))).rejects.toThrow(/only PNG/);
    fs.writeFileSync(path.join(process.env.DATA_DIR!, "secret.png"), PNG);
    for (const bad of [["..", "secret.png"], ["../secret.png"], ["..%2fsecret.png"], [".hidden"], ["a", "b.png"]])
      expect(await readUpload(bad)).toBeNull();
  });
});
