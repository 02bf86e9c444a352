import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../lib/db/client";
import { useTestDatabase } from "../lib/testing/test-database";
import { runCli } from "../lib/testing/run-cli";
import { anyNumber, anyString } from "@/lib/testing/matchers";

// Issue 12.4: member levels from the command line (level:create, level:rename,
// level:list, user:level), each printing one JSON line, bad input exit 2 with
// nothing written, refusals exit 1; every change audited as actor "cli".

let url: string;
const cli = <T = unknown>(...args: string[]) => runCli<T>(args, { DATABASE_URL: url });

function expectCleanError(r: { code: number | null; stdout: string; stderr: string }, code: number, message: RegExp) {
  expect(r.code).toBe(code);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stdout.trim()).toBe("");
}

describe("npm run cli: member levels (issue 12.4)", () => {
  beforeAll(async () => {
    url = await useTestDatabase();
  });

  it("issue 12.4: level:create, level:rename and level:list; bad slugs, empty names and duplicates are refused", async () => {
    const created = await cli<{ id: number }>("level:create", "--slug", "gold", "--name-en", "Gold", "--name-zh", "黄金会员");
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      id: anyNumber(),
      slug: "gold",
      name: { "zh-CN": "黄金会员", en: "Gold" },
      is_default: false,
      sort_order: 1,
    });

    const [dup, badSlug, emptyName, longName, missing] = await Promise.all([
      cli("level:create", "--slug", "gold", "--name-en", "Gold 2", "--name-zh", "黄金 2"),
      cli("level:create", "--slug", "Gold!", "--name-en", "G", "--name-zh", "G"),
      cli("level:create", "--slug", "silver", "--name-en", "  ", "--name-zh", "白银"),
      cli("level:create", "--slug", "silver", "--name-en", "x".repeat(101), "--name-zh", "白银"),
      cli("level:create", "--slug", "silver"),
    ]);
    expectCleanError(dup, 1, /a member level with slug "gold" already exists/);
    expectCleanError(badSlug, 2, /--slug: must be lowercase letters, digits and '-'/);
    expectCleanError(emptyName, 2, /--name-en: must not be empty/);
    expectCleanError(longName, 2, /--name-en: must be at most 100 characters/);
    expectCleanError(missing, 2, /--name-en is required/);

    const renamed = await cli("level:rename", "--slug", "gold", "--name-en", "Gold reseller", "--name-zh", "金牌经销商");
    expect(renamed.json).toMatchObject({ slug: "gold", name: { "zh-CN": "金牌经销商", en: "Gold reseller" } });
    expectCleanError(
      await cli("level:rename", "--slug", "nope", "--name-en", "N", "--name-zh", "N"),
      1,
      /no member level with slug "nope"/,
    );

    const list = await cli("level:list");
    expect(list.json).toEqual({
      levels: [
        {
          id: anyNumber(),
          slug: "default",
          name: { "zh-CN": "普通会员", en: "Member" },
          is_default: true,
          sort_order: 0,
          users: 0,
          sku_prices: 0,
        },
        {
          id: created.json.id,
          slug: "gold",
          name: { "zh-CN": "金牌经销商", en: "Gold reseller" },
          is_default: false,
          sort_order: 1,
          users: 0,
          sku_prices: 0,
        },
      ],
    });
    expect(await db().memberLevel.count()).toBe(2);
    const audit = await db().auditLog.findMany({ where: { actor: "cli", action: { startsWith: "level." } }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["level.create", "level.rename"]);
    expect(audit[1].details).toMatchObject({ slug: "gold", from: { en: "Gold" }, to: { en: "Gold reseller" } });
  }, 180_000);

  it("issue 12.4: user:level moves a buyer to a level (audited with the previous one); unknown buyer or level is refused", async () => {
    await cli("level:create", "--slug", "vip", "--name-en", "VIP", "--name-zh", "贵宾");
    await cli("user:create", "--email", "Reseller@Example.com");
    const moved = await cli("user:level", "--email", "reseller@example.com", "--level", "vip");
    expect(moved.code).toBe(0);
    expect(moved.json).toEqual({ id: anyString(), email: "reseller@example.com", level: "vip", previous_level: "default" });
    const user = await db().user.findUniqueOrThrow({ where: { email: "reseller@example.com" }, include: { memberLevel: true } });
    expect(user.memberLevel.slug).toBe("vip");

    const [noUser, noLevel, badEmail, badLevel] = await Promise.all([
      cli("user:level", "--email", "ghost@example.com", "--level", "vip"),
      cli("user:level", "--email", "reseller@example.com", "--level", "platinum"),
      cli("user:level", "--email", "not-an-email", "--level", "vip"),
      cli("user:level", "--email", "reseller@example.com", "--level", "VIP"),
    ]);
    expectCleanError(noUser, 1, /no user with email ghost@example.com/);
    expectCleanError(noLevel, 1, /no member level with slug "platinum"/);
    expectCleanError(badEmail, 2, /--email: must be an e-mail address/);
    expectCleanError(badLevel, 2, /--level: must be lowercase/);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id }, include: { memberLevel: true } })).memberLevel.slug).toBe("vip");
    const audit = await db().auditLog.findMany({ where: { actor: "cli", action: "user.member_level" } });
    expect(audit.map((a) => a.details)).toEqual([{ from: "default", to: "vip" }]);
  }, 180_000);
});
