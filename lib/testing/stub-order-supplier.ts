import type http from "node:http";
import { pathOf } from "../protocol/endpoints";
import { startLoopbackServer } from "./loopback-server";
import { withoutPrefix } from "./stub-upstream";

// A supplier that takes orders the way our protocol says (spec 4.5, D18):
// one order per downstream_order_no, a repeated create answers the stored
// order, GET /orders/{id} reads it. What it does with a new order is the
// test's choice; it can also swallow the answer to the first create of a
// number (the order is stored, the caller times out: a lost answer). For the
// failover tests of issue 26 (three such suppliers behind one SKU). It does
// not check signatures: the tests are about what we do with its answers.

export type NewOrderOutcome = "deliver" | "fail" | "refuse-stock";

export interface StubOrder {
  id: number;
  downstreamOrderNo: string;
  status: "delivered" | "failed";
  line: string | null;
  /** Creates received for this number (1 + repeats). */
  creates: number;
}

export interface StubOrderSupplier {
  origin: string;
  name: string;
  /** Stored orders by downstream_order_no: never more than one per number. */
  orders: Map<string, StubOrder>;
  /** Every POST /orders received, refused ones included. */
  createsReceived: number;
  /** Refusals answered (400 insufficient_stock). */
  refusals: number;
  /** Decides a new number's fate (called once per stored or refused number). */
  decide: (downstreamOrderNo: string) => NewOrderOutcome;
  /** Swallow the answer to the first create of each new number (the order is stored all the same). */
  loseFirstAnswer: boolean;
  /** Answer every request with 503 (nothing stored): an outcome we cannot know. */
  down: boolean;
  close(): Promise<void>;
}

export async function startStubOrderSupplier(name: string, price = "5.00"): Promise<StubOrderSupplier> {
  let nextId = 1;
  const s: StubOrderSupplier = {
    origin: "",
    name,
    orders: new Map(),
    createsReceived: 0,
    refusals: 0,
    decide: () => "deliver",
    loseFirstAnswer: false,
    down: false,
    close: () => Promise.resolve(),
  };
  const json = (res: http.ServerResponse, status: number, body: object) =>
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  const view = (o: StubOrder) => ({
    ok: true,
    order_id: o.id,
    order_no: `${name}-${o.id}`,
    downstream_order_no: o.downstreamOrderNo,
    status: o.status,
    amount: price,
    ...(o.line ? { fulfillment: { type: "provider_delivery", status: "delivered", delivery_data: [o.line] } } : {}),
  });
  const server = await startLoopbackServer((req, body, res) => {
    const path = withoutPrefix(req.url ?? "/");
    if (s.down && !path.startsWith(pathOf("ping")))
      return json(res, 503, { ok: false, error_code: "internal_error", error_message: "down" });
    if (req.method === "POST" && path === pathOf("createOrder")) {
      s.createsReceived++;
      const input = JSON.parse(body.toString("utf8")) as { downstream_order_no: string };
      const no = input.downstream_order_no;
      const stored = s.orders.get(no);
      if (stored) {
        stored.creates++;
        return json(res, 200, view(stored)); // D18: the original order
      }
      const outcome = s.decide(no);
      if (outcome === "refuse-stock") {
        s.refusals++;
        return json(res, 400, { ok: false, error_code: "insufficient_stock", error_message: "out of stock" });
      }
      const id = nextId++;
      const order: StubOrder = {
        id,
        downstreamOrderNo: no,
        status: outcome === "deliver" ? "delivered" : "failed",
        line: outcome === "deliver" ? `${name}-KEY-${id}` : null,
        creates: 1,
      };
      s.orders.set(no, order);
      if (s.loseFirstAnswer) return; // stored, never answered: the caller's timeout
      return json(res, 200, view(order));
    }
    if (req.method === "GET" && path.startsWith(pathOf("ping"))) return json(res, 200, { ok: true, balance: "1000.00" });
    const orderId = idIn(path, pathOf("getOrder"));
    if (req.method === "GET" && orderId !== undefined) {
      const order = [...s.orders.values()].find((o) => o.id === orderId);
      return order
        ? json(res, 200, view(order))
        : json(res, 404, { ok: false, error_code: "order_not_found", error_message: "no such order" });
    }
    return json(res, 404, { ok: false, error_code: "not_found", error_message: "no route" });
  });
  s.origin = server.origin;
  s.close = server.close;
  return s;
}

/** The numeric {id} of `path` when it has the template's shape ("/orders/{id}"). */
function idIn(path: string, template: string): number | undefined {
  const [before, after] = template.split("{id}");
  if (!path.startsWith(before) || !path.endsWith(after)) return undefined;
  const id = path.slice(before.length, path.length - after.length);
  return /^\d+$/.test(id) ? Number(id) : undefined;
}
