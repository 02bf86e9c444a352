import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { supplierClient } from "../protocol/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { makeBuyer, makeProduct } from "../testing/factories";
import { jsonReply } from "../testing/json-reply";
import { startStubNameserver, type StubNameserver } from "../testing/stub-nameserver";
import { useTestDatabase } from "../testing/test-database";

// Issue 22.3 over real HTTP: the built server with DNS_SERVERS pointing at a
// nameserver on 127.0.0.1 that never answers.

let server: AppServer;
let dns: StubNameserver;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer({ pointsCents: 1_000_000n });
  dns = await startStubNameserver({ silent: true });
  server = await startAppServer(url, { DNS_SERVERS: dns.server });
});
afterAll(async () => {
  await server?.stop();
  await dns?.close();
});

describe("issue 22.3: a nameserver that never answers, over HTTP", () => {
  it(
    'issue 22.3: orders with a callback host answer 400 "callback host did not resolve" after 2 s, and catalogue pages keep answering meanwhile',
    { timeout: 120_000 },
    async () => {
      const { sku } = await makeProduct({ fulfillmentType: "manual", priceCents: 500n, stockQuantity: 1000 });
      const api = supplierClient(server.baseUrl, "/api/v1/upstream", buyer);
      await jsonReply(api.get("/products?page_size=100")); // warm: the route is loaded

      const started = Date.now();
      const orders = Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          jsonReply(
            api.post("/orders", {
              downstream_order_no: `DNS-HTTP-${i}`,
              sku_id: sku.id,
              quantity: 1,
              callback_url: `https://h${i}.example.test/cb`,
            }),
          ).then((r) => ({ ...r, ms: Date.now() - started })),
        ),
      );
      await new Promise((r) => setTimeout(r, 200)); // the look-ups are waiting on the nameserver
      const pageTimes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = Date.now();
        const page = await api.get(`/products?page_size=100&page=${1 + (i % 2)}`);
        expect(page.status).toBe(200);
        await page.arrayBuffer();
        pageTimes.push(Date.now() - t);
      }
      const pagesDoneAt = Date.now() - started;

      const answers = await orders;
      expect(pagesDoneAt).toBeLessThan(Math.min(...answers.map((a) => a.ms))); // the pages answered while every order still waited
      expect(Math.max(...pageTimes)).toBeLessThan(1000);
      for (const a of answers) {
        expect(a.status).toBe(400);
        expect(a.body).toMatchObject({ ok: false, error_code: "bad_request", error_message: "callback host did not resolve" });
        expect(a.ms).toBeGreaterThanOrEqual(1900);
      }
      expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(6000);
      expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(0);
      expect(dns.questions.length).toBeGreaterThan(0);
    },
  );
});
