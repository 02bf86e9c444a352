import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../../audit/actor";
import { db } from "../../db/client";
import { failOrder } from "../../fulfillment/fail-order";
import { adjustPoints } from "../../users/adjust-points";
import { parseAmount } from "../../protocol/amount";
import { createSupplierClient, supplierClient } from "../../protocol/client";
import { ALL_PREFIXES } from "../../protocol/profiles";
import type { StatementWire } from "../../protocol/wire-responses";
import { startAppServer, type AppServer } from "../../testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "../../testing/factories";
import { jsonReply } from "../../testing/json-reply";
import { useTestDatabase } from "../../testing/test-database";
import { STATEMENT_NOTES } from "../../serializers/statement";

// Extension: GET {prefix}/statement over real HTTP, both profiles, all four
// prefixes (docs/decisions/0019-balance-statement.md; paging as D10).

type Buyer = Awaited<ReturnType<typeof makeBuyer>>;
type Item = StatementWire["items"][number];
let server: AppServer;
let buyer: Buyer;
let other: Buyer;
const orders: { autoU: number; autoP: number; manual: number; manualNo: string } = { autoU: 0, autoP: 0, manual: 0, manualNo: "" };
let seq = 0;
const no = () => `ST-${Date.now()}-${++seq}`;

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer({ pointsCents: 10_000n }); // opening balance 100.00: an adjustment row
  other = await makeBuyer({ pointsCents: 5_000n });
  server = await startAppServer(url);

  const auto = await makeProduct({ priceCents: 500n, cardKeys: cardKeysFor("STMT", 4) });
  const manual = await makeProduct({ fulfillmentType: "manual", priceCents: 300n, stockQuantity: 5 });
  const create = async (creds: Buyer, prefix: string, skuId: number, quantity: number) =>
    (await jsonReply(supplierClient(server.baseUrl, prefix, creds).post("/orders", { downstream_order_no: no(), sku_id: skuId, quantity })))
      .body;
  const u = await create(buyer, "/api/v1/upstream", auto.sku.id, 2); // -10.00, delivered at once
  expect(u.status).toBe("delivered");
  orders.autoU = u.order_id as number;
  orders.autoP = (await create(buyer, "/api/v1/provider", auto.sku.id, 1)).order_id as number; // -5.00
  const m = await create(buyer, "/v1/provider", manual.sku.id, 1); // -3.00
  orders.manual = m.order_id as number;
  orders.manualNo = m.order_no as string;
  await failOrder({ orderNo: orders.manualNo, reason: "out of stock upstream", actor: SYSTEM_ACTOR }); // refund +3.00 (D22)
  await adjustPoints({ email: buyer.user.email, deltaCents: 750n, reason: "admin: goodwill", actor: SYSTEM_ACTOR });
  await adjustPoints({ email: buyer.user.email, deltaCents: -225n, reason: "cli: correction", actor: SYSTEM_ACTOR });
  await create(other, "/api/v1/upstream", auto.sku.id, 1); // another user's order: never in buyer's statement
});
afterAll(async () => {
  await server?.stop();
});

/** Unknown parameters are ignored; `n` keeps two identical P queries in one second from being replays (D8). */
async function statement(prefix: string, query = "", creds: Buyer = buyer) {
  const sep = query ? "&" : "";
  return jsonReply(supplierClient(server.baseUrl, prefix, creds).get(`/statement?${query}${sep}n=${++seq}`)) as Promise<{
    status: number;
    body: StatementWire & Record<string, unknown>;
  }>;
}

const cents = (items: Item[]) => items.reduce((s, i) => s + parseAmount(i.amount), 0n);
const ledgerIds = async (userId: string) =>
  (await db().pointsLedger.findMany({ where: { userId }, orderBy: { id: "desc" }, select: { id: true } })).map((r) => Number(r.id));

describe("balance statement: the ledger of the key's own user", () => {
  it("both profiles, all four prefixes: newest first, amounts are signed two-decimal strings adding up to the balance, each row typed", async () => {
    const expectedIds = await ledgerIds(buyer.user.id);
    for (const { prefix } of ALL_PREFIXES) {
      const { status, body } = await statement(prefix, "page_size=100");
      expect(status, prefix).toBe(200);
      expect(body).toMatchObject({ ok: true, balance: "90.25", total: 7, page: 1, page_size: 100 });
      expect(body.items.map((i) => i.id)).toEqual(expectedIds); // id DESC, this user's rows only
      expect(cents(body.items)).toBe(parseAmount(body.balance)); // the ledger invariant, visible downstream
      for (const i of body.items) {
        expect(i.amount).toMatch(/^-?[0-9]+\.[0-9]{2}$/);
        expect(i.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
      // Running totals: each row's balance_after is the next older one's plus its amount.
      expect(body.items[0].balance_after).toBe(body.balance);
      body.items
        .slice(0, -1)
        .forEach((i, k) => expect(parseAmount(i.balance_after)).toBe(parseAmount(body.items[k + 1].balance_after) + parseAmount(i.amount)));
      expect(body.items.map(({ type, amount, order_id, note }) => ({ type, amount, order_id, note }))).toEqual([
        { type: "adjustment", amount: "-2.25", order_id: null, note: "cli: correction" },
        { type: "adjustment", amount: "7.50", order_id: null, note: "admin: goodwill" },
        { type: "refund", amount: "3.00", order_id: orders.manual, note: STATEMENT_NOTES.refund },
        { type: "order", amount: "-3.00", order_id: orders.manual, note: STATEMENT_NOTES.order },
        { type: "order", amount: "-5.00", order_id: orders.autoP, note: STATEMENT_NOTES.order },
        { type: "order", amount: "-10.00", order_id: orders.autoU, note: STATEMENT_NOTES.order },
        { type: "adjustment", amount: "100.00", order_id: null, note: "opening balance" },
      ]);
      expect(body.items[2].order_no).toBe(orders.manualNo);
      expect(body.items.filter((i) => i.order_id === null).every((i) => i.order_no === null)).toBe(true);
    }
  });

  it("order_id is the id the order endpoints answer to, in both profiles", async () => {
    const { body } = await statement("/api/v1/provider", "page_size=100");
    const row = body.items.find((i) => i.type === "order" && i.order_id === orders.autoP)!;
    const read = await jsonReply(supplierClient(server.baseUrl, "/api/v1/provider", buyer).get(`/orders/${row.order_id}`));
    expect(read.body).toMatchObject({ order_id: orders.autoP, order_no: row.order_no, amount: "5.00" });
    const readU = await jsonReply(supplierClient(server.baseUrl, "/v1/upstream", buyer).get(`/orders/${orders.autoU}`));
    expect(readU.body.order_no).toBe(body.items.find((i) => i.order_id === orders.autoU)!.order_no);
  });

  it("another user's rows never appear: each key sees its own user's ledger and balance", async () => {
    const mine = new Set(await ledgerIds(buyer.user.id));
    for (const { prefix } of ALL_PREFIXES) {
      const { body } = await statement(prefix, "page_size=100", other);
      expect(body.balance).toBe("45.00");
      expect(body.items.map((i) => i.id)).toEqual(await ledgerIds(other.user.id));
      expect(body.items.some((i) => mine.has(i.id))).toBe(false);
      expect(cents(body.items)).toBe(4_500n);
    }
  });

  it("D10 paging: pages of 3 concatenate to the whole list; a page past the end is empty with the total", async () => {
    for (const prefix of ["/api/v1/upstream", "/v1/provider"]) {
      const all = (await statement(prefix, "page_size=100")).body.items;
      const pages = [];
      for (let page = 1; page <= 3; page++) {
        const { body } = await statement(prefix, `page=${page}&page_size=3`);
        expect(body).toMatchObject({ total: 7, page, page_size: 3 });
        pages.push(...body.items);
      }
      expect(pages).toEqual(all);
      expect((await statement(prefix, "page=4&page_size=3")).body).toMatchObject({ items: [], total: 7, page: 4 });
      expect((await statement(prefix, "page=1000000000&page_size=100")).body).toMatchObject({ items: [], total: 7 });
      expect((await statement(prefix)).body).toMatchObject({ page: 1, page_size: 50 });
    }
  });

  it("from is inclusive, to exclusive, as RFC 3339 (any offset) or Unix seconds; the client sends a Date as RFC 3339", async () => {
    const all = (await statement("/api/v1/provider", "page_size=100")).body.items;
    const pivot = all[3]; // the manual order's debit
    const at = Date.parse(pivot.created_at);
    const plus8 = new Date(at + 8 * 3600_000).toISOString().replace("Z", "+08:00");
    const since = (ms: number) => all.filter((i) => Date.parse(i.created_at) >= ms);
    const before = (ms: number) => all.filter((i) => Date.parse(i.created_at) < ms);
    for (const { prefix } of ALL_PREFIXES) {
      for (const t of [pivot.created_at, plus8]) {
        const from = (await statement(prefix, `page_size=100&from=${encodeURIComponent(t)}`)).body;
        expect(from.items).toEqual(since(at));
        expect(from.items).toContainEqual(pivot);
        expect(from.total).toBe(from.items.length);
        const to = (await statement(prefix, `page_size=100&to=${encodeURIComponent(t)}`)).body;
        expect(to.items).toEqual(before(at));
        expect(to.items).not.toContainEqual(pivot);
        expect(from.balance).toBe("90.25"); // the balance is the whole ledger's, whatever the window
      }
      const second = Math.floor(at / 1000);
      expect((await statement(prefix, `page_size=100&from=${second}`)).body.items).toEqual(since(second * 1000));
      expect((await statement(prefix, `page_size=100&to=${second}`)).body.items).toEqual(before(second * 1000));
      const window = (
        await statement(prefix, `page_size=100&from=${encodeURIComponent(pivot.created_at)}&to=${encodeURIComponent(all[1].created_at)}`)
      ).body;
      expect(window.items).toEqual(
        all.filter((i) => Date.parse(i.created_at) >= at && Date.parse(i.created_at) < Date.parse(all[1].created_at)),
      );
    }
    const client = createSupplierClient({ baseUrl: server.baseUrl, apiKey: buyer.apiKey, apiSecret: buyer.apiSecret, profile: "P" });
    const typed = await client.getStatement({ from: new Date(at), page_size: 100 });
    expect(typed.items).toEqual(since(at));
  });

  it("D10 style: Profile P rejects a malformed or out-of-range page, page_size, from or to with 400 bad_request naming the field", async () => {
    const cases: [string, string][] = [
      ["page=0", "page"],
      ["page=abc", "page"],
      ["page_size=0", "page_size"],
      ["page_size=101", "page_size"],
      ["page_size=1.5", "page_size"],
      ["from=yesterday", "from"],
      ["from=2026-02-30T00:00:00Z", "from"],
      ["to=2026-11-22T10:00:00", "to"], // no offset: ambiguous
      ["to=-5", "to"],
      ["from=", "from"],
      ["from=1763769600&to=1763769599", "to"], // an inverted window
    ];
    for (const prefix of ["/api/v1/provider", "/v1/provider"]) {
      for (const [query, field] of cases) {
        const { status, body } = await statement(prefix, query);
        expect(status, `${prefix} ${query}`).toBe(400);
        expect(body.error_code).toBe("bad_request");
        expect(body.error_message, query).toContain(`"${field}"`);
      }
    }
  });

  it("D10 style: Profile U clamps page and page_size and ignores a malformed from or to", async () => {
    const full = (await statement("/api/v1/upstream", "page_size=100")).body;
    for (const prefix of ["/api/v1/upstream", "/v1/upstream"]) {
      expect((await statement(prefix, "page=0&page_size=101")).body).toMatchObject({ page: 1, page_size: 100, total: 7 });
      expect((await statement(prefix, "page=abc&page_size=x")).body).toMatchObject({ page: 1, page_size: 50, total: 7 });
      expect((await statement(prefix, "page=-3&page_size=-1")).body).toMatchObject({ page: 1, page_size: 1, total: 7 });
      for (const q of ["from=yesterday", "to=2026-02-30T00:00:00Z", "from=&to=%00", "to=-5"]) {
        const { status, body } = await statement(prefix, `${q}&page_size=100`);
        expect(status, q).toBe(200);
        expect(body.items, q).toEqual(full.items);
      }
      expect((await statement(prefix, "from=1763769600&to=1763769599")).body).toMatchObject({ items: [], total: 0, balance: "90.25" });
    }
  });
});
