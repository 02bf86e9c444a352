import http from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  close: () => Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 (loopback only, per the test rules) for the
 * test doubles: callback receivers, fault proxies, stub suppliers. Each
 * request is handed over with its whole body read.
 */
export async function startLoopbackServer(
  onRequest: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void,
): Promise<LoopbackServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => onRequest(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
