import { describe, expect, it } from "vitest";
import type { OrderView } from "../order-read/order-view";
import { dujiaoOrderReadWire } from "./dujiao-next";
import { orderCreatedWire, orderReadWire } from "./order";
import { orderWireChunks } from "./order-stream";

// Issue 40.3: the streamed bytes are exactly JSON.stringify of the wire of the whole order.

const lines = Array.from({ length: 2503 }, (_, i) => `k${i}-"q"\\b\t\n-é中😀\u2028\ud800-${"x".repeat(i % 5)}`);

function order(ls: string[], quantity = lines.length): OrderView {
  return {
    id: 7,
    orderNo: "N1",
    profile: "U",
    downstreamOrderNo: 'd"1',
    status: "delivered",
    amountCents: 250300n,
    refundedCents: 0n,
    traceId: "t\\1",
    errorMessage: null,
    createdAt: new Date(0),
    completedAt: new Date(1000),
    items: [
      {
        productId: 1,
        skuId: 2,
        title: { "zh-CN": "标题", en: 'T"' },
        quantity,
        unitPriceCents: 100n,
        totalPriceCents: 250300n,
        priceRule: "list",
      },
    ],
    fulfillment: { source: "auto", deliveryFormat: "text", lines: ls },
  };
}

async function streamed(wire: object, batch: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  // A plain generator: for await takes it as orderKeyReader's async one.
  const batches = function* () {
    for (let i = 0; i < lines.length; i += batch) yield lines.slice(i, i + batch);
  };
  for await (const c of orderWireChunks(wire, batches)()) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}

describe("orderWireChunks", () => {
  it("issue 40.3: streamed wire is byte-equal to JSON.stringify of the whole order (U, P, Dujiao-Next; any batch size)", async () => {
    const whole = order(lines);
    const empty = order([]); // what a streamed view holds: no lines
    const cases: [object, object][] = [
      [orderReadWire("U", whole), orderReadWire("U", empty)],
      [orderCreatedWire("U", whole), orderCreatedWire("U", empty)],
      [orderReadWire("P", whole), orderReadWire("P", empty)],
      [dujiaoOrderReadWire(whole), dujiaoOrderReadWire(empty)],
    ];
    for (const [expected, skeleton] of cases) {
      for (const batch of [1, 1000, 4000]) expect(firstDifference(await streamed(skeleton, batch), JSON.stringify(expected))).toBe("");
    }
  });
});

/** "" when equal, else where they part (a whole body in a failure message would be megabytes). */
function firstDifference(a: string, b: string): string {
  if (a === b) return "";
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i} of ${a.length}/${b.length}: ${JSON.stringify(a.slice(Math.max(0, i - 40), i + 40))} vs ${JSON.stringify(b.slice(Math.max(0, i - 40), i + 40))}`;
}
