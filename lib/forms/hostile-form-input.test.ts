import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { supplierClient } from "../protocol/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { makeBuyer, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";

// Issue 8.6: no input can stall the event loop. A form pattern with nested
// quantifiers (from an administrator or an upstream import) and a buyer's
// value crafted against it, or against the built-in e-mail check, must
// answer quickly while the same server keeps serving other requests.

let server: AppServer;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let other: Awaited<ReturnType<typeof makeBuyer>>;
let seq = 0;
const no = () => `HOSTILE-${Date.now()}-${++seq}`;

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  [buyer, other] = await Promise.all([makeBuyer({ pointsCents: 1_000_000n }), makeBuyer()]);
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

const P = (creds: typeof buyer) => supplierClient(server.baseUrl, "/api/v1/provider", creds);

/** Status, body and milliseconds until the answer; aborted after 5 s so a stalled server fails fast. */
async function timed(res: (signal: AbortSignal) => Promise<Response>) {
  const started = performance.now();
  const r = await res(AbortSignal.timeout(5000));
  const body = (await r.json()) as Record<string, unknown>;
  return { status: r.status, body, ms: performance.now() - started };
}

describe("issue 8.6: hostile form patterns and values", () => {
  it("issue 8.6: ^([a-z0-9]+)*$ against a crafted value answers within 1 s while another request is served normally", async () => {
    const { sku } = await makeProduct({
      fulfillmentType: "manual",
      priceCents: 100n,
      stockQuantity: 10,
      manualFormSchema: { fields: [{ key: "code", type: "text", required: true, regex: "^([a-z0-9]+)*$" }] },
    });
    // The pattern does its job on honest values; this first order also warms the server up.
    const fine = await timed((signal) =>
      P(buyer).post(
        "/orders",
        { downstream_order_no: no(), sku_id: sku.id, quantity: 1, manual_form_data: { code: "abc123" } },
        { signal },
      ),
    );
    expect(fine.status).toBe(200);
    await timed((signal) => P(other).get("/products?page_size=1", { signal })); // warms the other key up (not /ping: D8 replay)

    // V8's engine needs about 2^40 steps for this value (hours); RE2 is linear.
    const hostile = "a".repeat(40) + "!";
    // Best of three, for a loaded machine: on V8's engine the first try already
    // holds the event loop for hours, so every try fails the budget.
    const tries: { order: number; ping: number }[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const order = timed((signal) =>
        P(buyer).post(
          "/orders",
          { downstream_order_no: no(), sku_id: sku.id, quantity: 1, manual_form_data: { code: hostile } },
          { signal },
        ),
      );
      await new Promise((r) => setTimeout(r, 20));
      const ping = timed((signal) => P(other).get(`/ping?try=${attempt}`, { signal }));
      const [o, p] = await Promise.all([order, ping]);
      expect(o.status).toBe(400);
      expect(o.body).toMatchObject({
        ok: false,
        error_code: "bad_request",
        error_message: "manual_form_data.code: does not match the required format",
      });
      expect(JSON.stringify(o.body)).not.toContain(hostile);
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ ok: true });
      tries.push({ order: o.ms, ping: p.ms });
      if (o.ms < 1000 && p.ms < 1000) break;
    }
    expect(
      tries.some((t) => t.order < 1000 && t.ping < 1000),
      JSON.stringify(tries),
    ).toBe(true);
  });

  it("issue 8.6: values are capped before any matching; a crafted e-mail near the cap answers within 1 s", async () => {
    const { sku } = await makeProduct({
      fulfillmentType: "manual",
      priceCents: 100n,
      stockQuantity: 10,
      manualFormSchema: {
        fields: [
          { key: "mail", type: "email" },
          { key: "note", type: "textarea" },
        ],
      },
    });
    const post = (form: object) =>
      timed((signal) =>
        P(buyer).post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1, manual_form_data: form }, { signal }),
      );
    // Quadratic in V8's engine: about 350 ms at this length, hours at 1 MiB.
    const nearCap = await post({ mail: "a@" + "a.".repeat(4_990) + "@" });
    expect(nearCap.status).toBe(400);
    expect(nearCap.body.error_message).toBe("manual_form_data.mail: must be an e-mail address");
    expect(nearCap.ms).toBeLessThan(1000);
    const overCap = await post({ note: "x".repeat(10_001) });
    expect(overCap.status).toBe(400);
    expect(overCap.body.error_message).toBe("manual_form_data.note: must be at most 10000 characters");
    expect((await post({ note: "x".repeat(10_000), mail: "me@example.com" })).status).toBe(200);
  });
});
