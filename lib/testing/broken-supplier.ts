import http from "node:http";
import type { AddressInfo } from "node:net";
import { signRequest } from "../protocol/signing";

// Deliberately broken suppliers for the conformance kit's own tests (issue
// 11.3): a loopback proxy in front of our real server that breaks exactly
// one thing, so the kit must report exactly that fault.

export interface Faults {
  /** "Signature not checked": re-sign every request with this secret before forwarding. */
  resignWith?: string;
  /** Amounts as JSON numbers instead of two-decimal strings. */
  amountsAsNumbers?: boolean;
  /** Delete this top-level field from every success body. */
  dropField?: string;
  /** Answer with another status, e.g. { 404: 400 }. */
  statusMap?: Record<number, number>;
}

const AMOUNT_KEYS = new Set(["balance", "price_amount", "original_price", "amount", "unit_price", "total_price"]);

function numbersForAmounts(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(numbersForAmounts);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, AMOUNT_KEYS.has(k) && typeof x === "string" ? Number(x) : numbersForAmounts(x)]),
    );
  }
  return v;
}

export async function startBrokenSupplier(targetBaseUrl: string, faults: Faults): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  // Nothing awaits a request handler; the forward below answers 502 on any failure of its own.
  const server = http.createServer((req, res) => void forward(req, res));
  async function forward(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (!["host", "connection", "content-length", "transfer-encoding"].includes(k) && typeof v === "string") headers[k] = v;
    }
    if (faults.resignWith) {
      const timestamp =
        headers["svc-timestamp"] && /^[0-9]+$/.test(headers["svc-timestamp"])
          ? headers["svc-timestamp"]
          : String(Math.floor(Date.now() / 1000));
      headers["svc-timestamp"] = timestamp;
      headers["svc-signature"] = signRequest({
        method: req.method ?? "GET",
        path: (req.url ?? "/").split("?")[0],
        timestamp,
        body,
        secret: faults.resignWith,
      });
    }
    try {
      const up = await fetch(targetBaseUrl + req.url, {
        method: req.method,
        headers,
        body: req.method === "GET" ? undefined : body,
        redirect: "manual",
      });
      let text = await up.text();
      if (up.ok && (faults.amountsAsNumbers || faults.dropField)) {
        let json = JSON.parse(text) as Record<string, unknown>;
        if (faults.amountsAsNumbers) json = numbersForAmounts(json) as Record<string, unknown>;
        if (faults.dropField) delete json[faults.dropField];
        text = JSON.stringify(json);
      }
      const out: Record<string, string> = { "content-type": up.headers.get("content-type") ?? "application/json" };
      for (const h of ["x-request-id", "retry-after"]) if (up.headers.get(h)) out[h] = up.headers.get(h)!;
      res.writeHead(faults.statusMap?.[up.status] ?? up.status, out).end(text);
    } catch {
      res.writeHead(502).end();
    }
  }
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => server.close(() => r())) };
}
