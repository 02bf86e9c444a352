import { beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "../admins/create-admin";
import { adminActor, SYSTEM_ACTOR } from "../audit/actor";
import { encryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { AppError } from "../errors";
import { transitionOrder } from "../fulfillment/transition-order";
import { listJobs } from "../jobs/list-jobs";
import { createOrder } from "../orders/create-order";
import { makeBuyer, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { recheckUpstreamPurchase } from "../upstream/recheck-upstream-purchase";
import { runPurchaseJob } from "../upstream/run-purchase";
import { csvCell, exportOrdersCsv } from "./export-orders-csv";
import { parseOrderFilters } from "./order-filters";

// Issue 5: the orders CSV export (filters as in the table, form data masked,
// no secrets, formulas neutralised) and the review queue's "retry the upstream
// check" (one job for an order in unknown_review, audited; no final answer →
// the order stays in review).

beforeAll(async () => {
  await useTestDatabase();
});

const PHONE = "13800138000";
let seq = 0;
const no = () => `CSV-${Date.now()}-${++seq}`;

async function csv(params: Record<string, string>) {
  let out = "";
  for await (const chunk of await exportOrdersCsv(parseOrderFilters(params), { actor: SYSTEM_ACTOR, batchSize: 2 })) out += chunk;
  return out;
}

async function manualOrder(profile: "U" | "P") {
  const buyer = await makeBuyer({ pointsCents: 100_000n });
  const { product, sku } = await makeProduct({
    fulfillmentType: "manual",
    priceCents: 1500n,
    stockQuantity: 10,
    manualFormSchema: { fields: [{ key: "phone", type: "text", required: true, label: { "zh-CN": "手机", en: "Phone" } }] },
  });
  const { order } = await createOrder({
    credential: { id: buyer.id, userId: buyer.user.id },
    profile,
    input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1, ...(profile === "P" ? { manualFormData: { phone: PHONE } } : {}) },
  });
  return { buyer, product, order };
}

describe("orders CSV export", () => {
  it("lists the filtered orders with form data masked and no secret", async () => {
    const p = await manualOrder("P");
    const u = await manualOrder("U");
    const all = await csv({});
    expect(all.startsWith('\uFEFF"order_no","downstream_order_no",')).toBe(true);
    expect(all).toContain(p.order.orderNo);
    expect(all).toContain(u.order.orderNo);
    expect(all).toContain("phone=***");
    expect(all).not.toContain(PHONE);
    expect(all).not.toContain(p.buyer.apiSecret);

    const byProfile = await csv({ profile: "U" });
    expect(byProfile).toContain(u.order.orderNo);
    expect(byProfile).not.toContain(p.order.orderNo);
    const byKey = await csv({ key: p.buyer.apiKey });
    expect(byKey).toContain(p.order.orderNo);
    expect(byKey).not.toContain(u.order.orderNo);
    const byProduct = await csv({ product: String(u.product.id) });
    expect(byProduct).toContain(u.order.orderNo);
    expect(byProduct).not.toContain(p.order.orderNo);
    const placedOn = p.order.createdAt.toISOString().slice(0, 10); // the order's day, not the clock's (midnight)
    expect(await csv({ from: placedOn, to: placedOn })).toContain(p.order.orderNo);
    expect(await csv({ to: "2000-01-01" })).not.toContain(p.order.orderNo);
    // Malformed filters are dropped rather than erroring.
    expect(parseOrderFilters({ product: "x", from: "2026-13-45", profile: "Q" })).toEqual({
      status: undefined,
      profile: undefined,
      apiKey: undefined,
      productId: undefined,
      from: undefined,
      to: undefined,
      q: undefined,
    });
  });

  it("quotes cells and neutralises spreadsheet formulas", () => {
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("=HYPERLINK(1)")).toBe(`"'=HYPERLINK(1)"`);
    expect(csvCell("-5")).toBe(`"'-5"`);
    expect(csvCell(null)).toBe('""');
  });

  it("issue 8.7 CSV export: every cell is quoted, plain ones included", () => {
    expect(csvCell("ORD-1")).toBe('"ORD-1"');
    expect(csvCell(3)).toBe('"3"');
    expect(csvCell("")).toBe('""');
  });

  it("issue 8.7 CSV export: a formula after any separator inside a cell is neutralised (OWASP CSV injection)", () => {
    // Opened with ";", "|" or tab as the separator, each piece becomes a cell of its own.
    expect(csvCell("x,=cmd|' /C calc'!A0")).toBe(`"x,'=cmd|' /C calc'!A0"`);
    expect(csvCell("a;+1")).toBe(`"a;'+1"`);
    expect(csvCell("Game card | @SUM(1)")).toBe(`"Game card | '@SUM(1)"`);
    expect(csvCell("a\t-2")).toBe(`"a\t'-2"`);
    expect(csvCell("line\r\n=1+1")).toBe(`"line\r\n'=1+1"`);
    expect(csvCell("\t=1")).toBe(`"'\t'=1"`);
    expect(csvCell("\r@x")).toBe(`"'\r'@x"`);
    // Text that only looks similar stays as it is.
    expect(csvCell("a=b, c-d")).toBe('"a=b, c-d"');
  });

  it("issue 8.7 CSV export: a hostile product title reaches the file quoted and neutralised", async () => {
    const buyer = await makeBuyer({ pointsCents: 100_000n });
    const title = { "zh-CN": "", en: 'Card;=HYPERLINK("http://evil")' };
    const { product, sku } = await makeProduct({ fulfillmentType: "manual", priceCents: 100n, stockQuantity: 5 });
    await db().product.update({ where: { id: product.id }, data: { title } });
    const { order } = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1 },
    });
    const line = (await csv({ key: buyer.apiKey })).split("\r\n").find((l) => l.includes(order.orderNo))!;
    expect(line).toContain(`"Card;'=HYPERLINK(""http://evil"")"`);
    expect(line.startsWith(`"${order.orderNo}",`)).toBe(true);
  });

  it("issue 34.3: the export writes its own audit row (the administrator, the filters) before a line is read", async () => {
    const email = `export-${Date.now()}@example.test`;
    const admin = await createAdmin({ email, password: "a-long-enough-password-1" }, { actor: SYSTEM_ACTOR });
    const filters = parseOrderFilters({ status: "failed" });
    await exportOrdersCsv(filters, { actor: adminActor({ id: admin.id, ip: "203.0.113.9" }) });
    const rows = await db().auditLog.findMany({ where: { action: "orders.export", actor: email } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ targetType: "order", ip: "203.0.113.9", details: { status: "failed" } });
  });
});

describe("review queue: retry the upstream check", () => {
  it("refuses an order not in review; queues one audited recheck job; no answer keeps the order in review", async () => {
    const { order } = await manualOrder("P");
    const refused = await recheckUpstreamPurchase({ orderNo: order.orderNo, actor: SYSTEM_ACTOR }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(409);

    // An upstream purchase past its deadline, against a supplier that does not answer (closed loopback port).
    const conn = await db().upstreamConnection.create({
      data: {
        name: "silent",
        baseUrl: "http://127.0.0.1:9",
        profile: "P",
        apiKey: "k",
        secretCiphertext: encryptText("s"),
        maxWaitSeconds: 1,
      },
    });
    const purchase = await db().upstreamPurchase.create({
      data: {
        orderId: order.id,
        connectionId: conn.id,
        downstreamOrderNo: order.orderNo,
        upstreamSkuId: 1,
        status: "unknown",
        attemptCount: 3,
        lastError: "timeout",
        deadlineAt: new Date(Date.now() - 1000),
      },
    });
    await db().$transaction((tx) => transitionOrder(tx, order.id, { to: "unknown_review" }));

    const r = await recheckUpstreamPurchase({ orderNo: order.orderNo, actor: SYSTEM_ACTOR });
    expect(r.purchaseId).toBe(purchase.id);
    const jobs = (await listJobs({ limit: 1000 })).filter((j) => j.task === "upstream:purchase");
    expect(jobs.map((j) => j.payload)).toContainEqual({ purchaseId: purchase.id, recheck: true });
    expect(await db().auditLog.count({ where: { action: "order.upstream_recheck", targetId: order.orderNo } })).toBe(1);

    // The job (run here directly): the upstream does not answer → still in review, the attempt recorded.
    await runPurchaseJob({ purchaseId: purchase.id, recheck: true });
    const after = await db().upstreamPurchase.findUniqueOrThrow({ where: { id: purchase.id } });
    expect(after.status).toBe("unknown");
    expect(after.attemptCount).toBe(4);
    expect(after.lastError).toMatch(/connection failed/);
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("unknown_review");
    // Without the recheck flag a purchase in review is left alone.
    await runPurchaseJob({ purchaseId: purchase.id });
    expect((await db().upstreamPurchase.findUniqueOrThrow({ where: { id: purchase.id } })).attemptCount).toBe(4);
  });
});
