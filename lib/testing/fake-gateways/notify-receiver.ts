import type { GatewayChannel, GatewayReport, NotifyRequest, PaymentDriver } from "../../payments/drivers/driver";
import { NotifyRefusedError } from "../../payments/drivers/driver";
import { startLoopbackServer } from "../loopback-server";

// Stands in for the app's notify endpoint in driver tests: each request is
// handed to the driver's verify as the app would hand it over, and the
// outcome is kept. A refusal is answered 400, a report with the driver's reply.

export type NotifyVerdict = { report: GatewayReport; refused?: undefined } | { refused: string; report?: undefined };

export interface NotifyReceiver {
  /** The notify URL to give the gateway. */
  url: string;
  verdicts: NotifyVerdict[];
  /** The requests as verify saw them. */
  requests: NotifyRequest[];
  close(): Promise<void>;
}

export async function startNotifyReceiver(driver: PaymentDriver, channel: () => GatewayChannel): Promise<NotifyReceiver> {
  const receiver: NotifyReceiver = { url: "", verdicts: [], requests: [], close: () => Promise.resolve() };
  const server = await startLoopbackServer((req, body, res) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const request: NotifyRequest = { method: req.method ?? "GET", query: url.searchParams, headers, rawBody: body };
    receiver.requests.push(request);
    try {
      const report = driver.verify(channel(), request);
      receiver.verdicts.push({ report });
      res.writeHead(200, { "Content-Type": "text/plain" }).end(driver.successReply);
    } catch (err) {
      // Anything but a refusal (a TypeError from a hostile body) is a bug: it is kept and answered 500.
      const refused = err instanceof NotifyRefusedError ? err.why : `NOT A REFUSAL: ${String(err)}`;
      receiver.verdicts.push({ refused });
      res.writeHead(err instanceof NotifyRefusedError ? 400 : 500, { "Content-Type": "text/plain" }).end(refused);
    }
  });
  receiver.url = `${server.origin}/api/payments/notify/1`;
  receiver.close = server.close;
  return receiver;
}
