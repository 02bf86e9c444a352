import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR, SYSTEM_ACTOR } from "@/lib/audit/actor";
import { setAcgSwitch } from "@/lib/credentials/set-acg-switch";
import { db } from "@/lib/db/client";
import { setSkuLevelPrices } from "@/lib/levels/set-sku-level-prices";
import { updateSettings } from "@/lib/settings/update-settings";
import { setMemberLevel } from "@/lib/users/set-member-level";
import { acgClient, AcgClientError, generateSignature, httpBuildQuery } from "@/lib/testing/acg-client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { cardKeysFor, makeBuyer, makeLevel, makeProduct } from "@/lib/testing/factories";
import { balanceOf } from "@/lib/testing/points";
import { runCli } from "@/lib/testing/run-cli";
import { useTestDatabase } from "@/lib/testing/test-database";

// Issue 37.2 (decision 0091): an unmodified ACG-Faka shop, as its client
// code reads our answers (lib/testing/acg-client.ts), docks to the real app
// server: connect, import, price, stock, buy, buy again with the same
// request_no; and the hostile cases. The server trusts loopback as a proxy,
// so one server also shows the HTTPS rule behind a proxy.

const SLOW = 300_000;
let server: AppServer;
let dbUrl: string;
type Buyer = Awaited<ReturnType<typeof makeBuyer>>;
let a: Buyer;
let b: Buyer;
let off: Buyer;
let keys: string[];
let code: string;
let manualCode: string;
let levelCode: string;

const domain = () => `${server.baseUrl}/acg`;
const clientOf = (buyer: Buyer, headers?: Record<string, string>) => acgClient(domain(), String(buyer.id), buyer.apiSecret, headers);
const ordersOf = (buyer: Buyer) => db().order.count({ where: { credentialId: buyer.id } });

beforeAll(async () => {
  dbUrl = await useTestDatabase();
  server = await startAppServer(dbUrl, { TRUSTED_PROXIES: "loopback" });
  await updateSettings({ public_base_url: "https://shop.example.test/" }, { actor: SYSTEM_ACTOR });
  [a, b, off] = await Promise.all([makeBuyer({ pointsCents: 100_000n }), makeBuyer({ pointsCents: 5_000n }), makeBuyer()]);
  for (const buyer of [a, b]) await setAcgSwitch({ apiKey: buyer.apiKey, on: true, actor: CLI_ACTOR });
  keys = cardKeysFor("ACG", 40);
  const auto = await makeProduct({ priceCents: 1250n, cardKeys: keys });
  code = String(auto.sku.id);
  manualCode = String((await makeProduct({ fulfillmentType: "manual", stockQuantity: 10 })).sku.id);
  // Buyer b's member level pays 9.99 for this SKU; everyone else its 20.00.
  const level = await makeLevel();
  const levelled = await makeProduct({ priceCents: 2000n, cardKeys: cardKeysFor("LVL", 5) });
  levelCode = String(levelled.sku.id);
  await db().$transaction((tx) => setSkuLevelPrices(tx, { skuId: levelled.sku.id, prices: { [level.slug]: 999n } }));
  await setMemberLevel({ email: b.user.email, level: level.slug }, { actor: SYSTEM_ACTOR });
}, SLOW);
afterAll(async () => {
  await server?.stop();
});

describe("issue 37.2: an ACG-Faka shop docks to /acg", () => {
  it("issue 37.2: connect, import, item, stock (a string), valuation, trade (keys as lines), balance debited once", async () => {
    const c = clientOf(a);
    const connected = await c.connect();
    expect(connected.shopName).not.toBe("");
    expect(connected.balance).toBe(1000);

    const children = (await c.items()).flatMap((g) => g.children);
    expect(children.map((i) => i.code)).toContain(code);
    expect(children.map((i) => i.code)).not.toContain(manualCode); // manual delivery: not offered

    const item = await c.item(code);
    expect(item).toMatchObject({ code, draft_status: 0, price: "12.50", user_price: "12.50", stock: 40, delivery_way: 0 });
    expect(await c.stock(code)).toBe("40");
    expect(await c.valuation(code, 3)).toBe("37.50");

    const secret = await c.trade(code, 2, "202611290001001");
    const lines = secret.split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(keys).toContain(line);
    expect(await balanceOf(a.user.id)).toBe(100_000n - 2500n);

    // Their retry after a lost answer: the same keys, nothing charged again.
    expect(await c.trade(code, 2, "202611290001001")).toBe(secret);
    expect(await balanceOf(a.user.id)).toBe(100_000n - 2500n);
    const order = await db().order.findFirstOrThrow({ where: { credentialId: a.id, downstreamOrderNo: "acg-202611290001001" } });
    expect(order.amountCents).toBe(2500n);
  });

  it("issue 37.2: the same request_no with another item or quantity is refused and charges nothing", async () => {
    const c = clientOf(a);
    await c.trade(code, 1, "R-REPLAY");
    const before = await balanceOf(a.user.id);
    const orders = await ordersOf(a);
    await expect(c.trade(code, 2, "R-REPLAY")).rejects.toThrow(/request_no already used/);
    await expect(c.trade(levelCode, 1, "R-REPLAY")).rejects.toThrow(/request_no already used/);
    expect(await balanceOf(a.user.id)).toBe(before);
    expect(await ordersOf(a)).toBe(orders);
  });

  it("issue 37.2: ten identical trades at once: one debit, one delivery, the same secret to all", async () => {
    const c = clientOf(a);
    const before = await balanceOf(a.user.id);
    const secrets = await Promise.all(Array.from({ length: 10 }, () => c.trade(code, 1, "R-CONCURRENT")));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0].split("\n")).toHaveLength(1);
    expect(await balanceOf(a.user.id)).toBe(before - 1250n);
    expect(await db().order.count({ where: { credentialId: a.id, downstreamOrderNo: "acg-R-CONCURRENT" } })).toBe(1);
    const placed = await db().order.findFirstOrThrow({ where: { credentialId: a.id, downstreamOrderNo: "acg-R-CONCURRENT" } });
    expect(await db().cardKey.count({ where: { orderId: placed.id } })).toBe(1);
  });

  it("issue 37.2: another key's request_no is another order: its own keys, its own debit", async () => {
    const mine = await clientOf(a).trade(code, 1, "R-SHARED-NO");
    const before = await balanceOf(b.user.id);
    const theirs = await clientOf(b).trade(code, 1, "R-SHARED-NO");
    expect(theirs).not.toBe(mine);
    expect(await balanceOf(b.user.id)).toBe(before - 1250n);
  });

  it("issue 37.2: prices are the buyer's member level's, two decimals from integer fen", async () => {
    expect(await clientOf(a).item(levelCode)).toMatchObject({ price: "20.00" });
    expect(await clientOf(b).item(levelCode)).toMatchObject({ price: "9.99", user_price: "9.99" });
    expect(await clientOf(b).valuation(levelCode, 3)).toBe("29.97");
    const before = await balanceOf(b.user.id);
    await clientOf(b).trade(levelCode, 3, "R-LEVEL");
    expect(await balanceOf(b.user.id)).toBe(before - 2997n);
  });

  it("issue 37.2: not enough points is their error answer, nothing delivered", async () => {
    const poor = await makeBuyer({ pointsCents: 100n });
    await setAcgSwitch({ apiKey: poor.apiKey, on: true, actor: CLI_ACTOR });
    await expect(clientOf(poor).trade(code, 1, "R-POOR")).rejects.toThrow(/insufficient balance/);
    expect(await ordersOf(poor)).toBe(0);
    expect(await balanceOf(poor.user.id)).toBe(100n);
  });
});

describe("issue 37.2: hostile requests to /acg", () => {
  const raw = (path: string, body: string, headers: Record<string, string> = {}, method = "POST") =>
    fetch(`${domain()}${path}`, {
      method,
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: method === "GET" ? undefined : body,
    });
  const signed = (buyer: Buyer, data: Record<string, string>, key = buyer.apiSecret) => {
    const fields: Record<string, string> = { ...data, app_id: String(buyer.id), app_key: buyer.apiSecret };
    return httpBuildQuery({ ...fields, sign: generateSignature(fields, key) });
  };
  const refusal = async (res: Response) => {
    expect(res.status).toBe(200);
    const body = (await res.json()) as { code: number; msg: string; data?: unknown };
    expect(body.code).toBe(0);
    expect(body).not.toHaveProperty("data");
    return body.msg;
  };

  it("issue 37.2: a bad signature, an unknown app_id and a switched-off key get the same refusal", async () => {
    const wrong = await refusal(await raw("/shared/authentication/connect", signed(a, {}, "not-the-secret")));
    const unknown = await refusal(await raw("/shared/authentication/connect", signed({ ...a, id: 99_999_999 }, {})));
    const switchedOff = await refusal(await raw("/shared/authentication/connect", signed(off, {})));
    expect(new Set([wrong, unknown, switchedOff]).size).toBe(1);
    // app_key in the body must be the secret even when the signature uses the secret.
    const fields = { app_id: String(a.id), app_key: "other" };
    const body = httpBuildQuery({ ...fields, sign: generateSignature(fields, a.apiSecret) });
    expect(await refusal(await raw("/shared/authentication/connect", body))).toBe(wrong);
  });

  it("issue 37.2: switching a key off stops it at once; apikey:acg names the app_id and URL", async () => {
    const on = await runCli<{ ok: boolean; app_id: string; url: string }>(["apikey:acg", "--key", off.apiKey, "--on"], {
      DATABASE_URL: dbUrl,
    });
    expect(on.json).toMatchObject({ ok: true, acg_enabled: true, app_id: String(off.id), url: "https://shop.example.test/acg" });
    await expect(clientOf(off).connect()).resolves.toMatchObject({ balance: 1000 });
    await runCli(["apikey:acg", "--key", off.apiKey, "--off"], { DATABASE_URL: dbUrl });
    await expect(clientOf(off).connect()).rejects.toThrow(AcgClientError);
    const audit = await db().auditLog.findMany({
      where: { targetType: "api_credential", targetId: String(off.id), action: { startsWith: "api_key.acg" } },
      select: { action: true },
      orderBy: { id: "asc" },
    });
    expect(audit.map((r) => r.action)).toEqual(["api_key.acg_on", "api_key.acg_off"]);
  });

  it("issue 37.2: missing or bad fields are refused and charge nothing", async () => {
    const before = await balanceOf(a.user.id);
    const bad: Record<string, string>[] = [
      { shared_code: code, num: "1" }, // no request_no
      { shared_code: code, request_no: "R-BAD-1" }, // no num
      { shared_code: code, num: "0", request_no: "R-BAD-2" },
      { shared_code: code, num: "1.5", request_no: "R-BAD-3" },
      { shared_code: manualCode, num: "1", request_no: "R-BAD-4" }, // not offered
      { shared_code: code, num: "1", request_no: "has space" },
      { shared_code: code, num: "1", request_no: "R-BAD-5", race: "red" },
    ];
    for (const data of bad) {
      await refusal(await raw("/shared/commodity/trade", signed(a, data)));
    }
    await refusal(await raw("/shared/commodity/item", signed(a, {})));
    expect(await balanceOf(a.user.id)).toBe(before);
  });

  it("issue 37.2: a JSON body, an oversize body, a GET, a malformed form; an unknown path is their 404 page", async () => {
    const json = JSON.stringify({ app_id: String(a.id), app_key: a.apiSecret });
    expect(await refusal(await raw("/shared/authentication/connect", json, { "content-type": "application/json" }))).toMatch(/form/);
    expect(await refusal(await raw("/shared/authentication/connect", "x=" + "a".repeat(70 * 1024)))).toMatch(/too large/);
    expect(await refusal(await raw("/shared/authentication/connect", "", {}, "GET"))).toMatch(/POST/);
    expect(await refusal(await raw("/shared/authentication/connect", "app_id=%ZZ"))).toMatch(/unreadable/);
    const missing = await raw("/shared/commodity/draftCard", signed(a, {}));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("404 Not Found");
  });

  it("issue 37.2: behind a trusted proxy only HTTPS is served; a client's own x-client-secure is ignored", async () => {
    const viaProxy = (proto: string) =>
      clientOf(a, { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": proto, "x-client-secure": "1" });
    await expect(viaProxy("http").connect()).rejects.toThrow(/HTTPS required/);
    expect((await viaProxy("https").connect()).balance).toBeGreaterThan(0);
  });
});
