import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db/client";
import { loadOrderView } from "../../order-read/order-view";
import { orderReadWire } from "../../serializers/order";
import { startAppServer, type AppServer } from "../../testing/app-server";
import { makeBuyer, makeProduct } from "../../testing/factories";
import { signedRawRequest, type RawResponse } from "../../testing/test-client";
import { useTestDatabase } from "../../testing/test-database";

// Issue 40.3 (decision 0095): an order of many keys is answered as a stream,
// byte for byte what the serializer of a whole order gives, each key once.

const N = 20_000;
let server: AppServer;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let seq = 0;
const no = () => `L-${Date.now()}-${++seq}`;

// Keys with what JSON must escape (quote, backslash, tab, U+2028) and what it must not (non-ASCII).
const keysFor = (tag: string) => Array.from({ length: N }, (_, i) => `${tag}-${i}-"q"\\b\t-é中😀\u2028-${i % 7}`);

beforeAll(async () => {
  const dbUrl = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer({ pointsCents: 100_000_000n });
  server = await startAppServer(dbUrl);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const PREFIX = { U: "/api/v1/upstream", P: "/api/v1/provider" } as const;
const send = (profile: "U" | "P", method: string, path: string, body?: object) =>
  signedRawRequest(server.baseUrl, buyer, { method, path: PREFIX[profile] + path, body: body && JSON.stringify(body) });

/** What the serializer of a whole order (every line read) gives for this order today. */
async function wholeWire(profile: "U" | "P", orderId: number): Promise<string> {
  const view = await loadOrderView(db(), buyer.id, orderId);
  return JSON.stringify(orderReadWire(profile, view!));
}

function expectStreamed(res: RawResponse) {
  expect(res.status).toBe(200);
  expect(res.headers["transfer-encoding"]).toBe("chunked");
  expect(res.headers["content-length"]).toBeUndefined();
}

function expectEachKeyOnce(res: RawResponse, keys: string[]) {
  const f = res.json<{ fulfillment: { payload: string; delivery_data: string[] } }>().fulfillment;
  expect(f.delivery_data).toHaveLength(N);
  expect(new Set(f.delivery_data)).toEqual(new Set(keys));
  expect(f.payload).toBe(f.delivery_data.join("\n"));
}

describe("issue 40.3: large orders", () => {
  it("issue 40.3: a 20,000-key Profile U create and read are streamed, byte-equal to the whole serializer, each key once; a repeat gives the same", async () => {
    const keys = keysFor("U");
    const { sku } = await makeProduct({ priceCents: 1n, cardKeys: keys });
    const body = { downstream_order_no: no(), sku_id: sku.id, quantity: N };
    const created = await send("U", "POST", "/orders", body);
    expectStreamed(created);
    const orderId = created.json<{ order_id: number }>().order_id;
    expect(created.text).toBe(await wholeWire("U", orderId));
    expectEachKeyOnce(created, keys);

    const again = await send("U", "POST", "/orders", body);
    expectStreamed(again);
    expect(again.text).toBe(created.text);
    const read = await send("U", "GET", `/orders/${orderId}`);
    expectStreamed(read);
    expect(read.text).toBe(created.text);
    expect(await db().cardKey.count({ where: { orderId } })).toBe(N);
  }, 180_000);

  it("issue 40.3: a 20,000-key Profile P order is read as a stream, byte-equal to the whole serializer; a repeat create gives the same order", async () => {
    const keys = keysFor("P");
    const { sku } = await makeProduct({ priceCents: 1n, cardKeys: keys });
    const body = { downstream_order_no: no(), sku_id: sku.id, quantity: N };
    const created = await send("P", "POST", "/orders", body);
    expect(created.status).toBe(200);
    const orderId = created.json<{ order_id: number; status: string }>().order_id;
    expect(created.json<{ status: string }>().status).toBe("processing");

    const read = await send("P", "GET", `/orders/${orderId}`);
    expectStreamed(read);
    expect(read.text).toBe(await wholeWire("P", orderId));
    expectEachKeyOnce(read, keys);

    const again = await send("P", "POST", "/orders", body);
    expect(again.text).toBe(created.text);
    expect((await send("P", "GET", `/orders/${orderId}`)).text).toBe(read.text);
  }, 180_000);
});
