import { beforeAll, describe, expect, it } from "vitest";
import { adminActor, type Actor, SYSTEM_ACTOR } from "../audit/actor";
import { createAdmin } from "../admins/create-admin";
import { saveSku } from "../catalog/save-sku";
import { db } from "../db/client";
import { expectError } from "../testing/expect-error";
import { makeBuyer, makeLevel, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { setMemberLevel } from "../users/set-member-level";
import { createLevel } from "./create-level";
import { listLevels } from "./list-levels";
import { renameLevel } from "./rename-level";

// Issue 12.4: the level services the console and the CLI share; each checks
// its input, writes nothing on bad input, and audits what it changed.

let admin: { actor: Actor };

beforeAll(async () => {
  await useTestDatabase();
  const { id } = await createAdmin({ email: "admin@example.test", password: "a-test-password-123" }, { actor: SYSTEM_ACTOR });
  admin = { actor: adminActor({ id, ip: "192.0.2.7" }) };
});

describe("member level services (issue 12.4)", () => {
  it("issue 12.4: createLevel checks slug and both names, puts the level after the others, and audits; a duplicate slug is a conflict", async () => {
    const before = await db().memberLevel.count();
    await expectError(createLevel({ slug: "Bad Slug", name: { "zh-CN": "x", en: "x" } }, admin), "bad_request", 400);
    await expectError(createLevel({ slug: "ok-slug", name: { "zh-CN": " ", en: "x" } }, admin), "bad_request", 400);
    await expectError(createLevel({ slug: "ok-slug", name: { "zh-CN": "x", en: "y".repeat(101) } }, admin), "bad_request", 400);
    expect(await db().memberLevel.count()).toBe(before);

    const level = await createLevel({ slug: "reseller", name: { "zh-CN": " 经销商 ", en: "Reseller" } }, admin);
    expect(level).toMatchObject({ slug: "reseller", name: { "zh-CN": "经销商", en: "Reseller" }, isDefault: false });
    const all = await listLevels();
    expect(all[0]).toMatchObject({ slug: "default", isDefault: true });
    expect(all.at(-1)?.slug).toBe("reseller");
    await expectError(createLevel({ slug: "reseller", name: { "zh-CN": "x", en: "x" } }, admin), "conflict", 409);
    const audit = await db().auditLog.findFirstOrThrow({ where: { action: "level.create", targetId: String(level.id) } });
    expect(audit).toMatchObject({ actor: "admin@example.test", ip: "192.0.2.7", targetType: "member_level" });

    const renamed = await renameLevel({ slug: "reseller", name: { "zh-CN": "大客户", en: "Key account" } }, admin);
    expect(renamed).toMatchObject({ id: level.id, slug: "reseller", name: { "zh-CN": "大客户", en: "Key account" } });
    await expectError(renameLevel({ slug: "nope", name: { "zh-CN": "x", en: "x" } }, admin), "not_found", 404);
    expect((await db().auditLog.findFirstOrThrow({ where: { action: "level.rename" } })).details).toMatchObject({
      from: { en: "Reseller" },
      to: { en: "Key account" },
    });
  });

  it("issue 12.4: setMemberLevel by buyer id (console) checks the id and the level; the buyer page's move is audited", async () => {
    const level = await makeLevel();
    const { user } = await makeBuyer();
    await expectError(setMemberLevel({ userId: "not-a-uuid", level: level.slug }, admin), "bad_request", 400);
    await expectError(setMemberLevel({ userId: user.id, level: "no-such-level" }, admin), "not_found", 404);
    await expectError(setMemberLevel({ userId: "00000000-0000-4000-8000-000000000000", level: level.slug }, admin), "not_found", 404);
    expect(await setMemberLevel({ userId: user.id, level: level.slug }, admin)).toMatchObject({
      level: level.slug,
      previousLevel: "default",
    });
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).memberLevelId).toBe(level.id);
    const audit = await db().auditLog.findMany({ where: { action: "user.member_level", targetId: user.id } });
    expect(audit.map((a) => [a.actor, a.details])).toEqual([["admin@example.test", { from: "default", to: level.slug }]]);
  });

  it("issue 12.4: the SKU form's level prices: set, blank clears, levels not named are untouched, bad amounts and unknown levels write nothing", async () => {
    const [gold, silver] = [await makeLevel(), await makeLevel()];
    const { product, sku } = await makeProduct({ priceCents: 1000n });
    const session = { actor: adminActor({ id: (await db().adminUser.findFirstOrThrow()).id, ip: null }) };
    const form = (levelPrices: Record<string, string>) => ({
      id: sku.id,
      productId: product.id,
      skuCode: sku.skuCode,
      specValues: {},
      price: "10.00",
      isActive: true,
      stockQuantity: null,
      levelPrices,
    });
    const prices = async () =>
      Object.fromEntries(
        (await db().skuLevelPrice.findMany({ where: { skuId: sku.id }, include: { level: true } })).map((p) => [
          p.level.slug,
          p.priceCents,
        ]),
      );

    await saveSku(form({ [gold.slug]: "8.00", [silver.slug]: "9.00" }), session);
    expect(await prices()).toEqual({ [gold.slug]: 800n, [silver.slug]: 900n });
    const audit = await db().auditLog.findFirstOrThrow({
      where: { action: "sku.update", targetId: String(sku.id) },
      orderBy: { id: "desc" },
    });
    expect(audit.details).toMatchObject({
      levelPrices: [
        { level: gold.slug, from: null, to: "8.00" },
        { level: silver.slug, from: null, to: "9.00" },
      ],
    });

    await saveSku(form({ [gold.slug]: "" }), session);
    expect(await prices()).toEqual({ [silver.slug]: 900n });

    await expectError(saveSku(form({ [silver.slug]: "-1.00" }), session), "bad_request", 400);
    await expectError(saveSku(form({ [silver.slug]: "1.001" }), session), "bad_request", 400);
    await expectError(saveSku({ ...form({ "no-such-level": "1.00" }), price: "11.00" }, session), "bad_request", 400);
    expect(await prices()).toEqual({ [silver.slug]: 900n });
    expect((await db().sku.findUniqueOrThrow({ where: { id: sku.id } })).priceCents).toBe(1000n); // the whole save rolled back
  });
});
