// The fulfiller API's edge (issue 39, decision 0093): one wrapper for its
// routes, in the supplier API's order (request id, body limit, token, JSON,
// zod) and with its D1 error body, so a route reads as schema → service.
import crypto from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { appError } from "@/lib/errors";
import { authenticateFulfiller, type FulfillerToken } from "@/lib/fulfiller/fulfiller-token";
import { IdempotencyKeySchema } from "@/lib/fulfiller/fulfiller-input";
import { clientIp } from "@/lib/net/client-address";
import { HEADER_REQUEST_ID } from "@/lib/protocol/headers";
import { readBody, refuseDeclaredOversize } from "@/lib/supplier-api/endpoint-request";
import { errorResponse, jsonResponse } from "@/lib/supplier-api/responses";

export interface FulfillerCall {
  token: FulfillerToken;
  ip: string | null;
  /** The parsed JSON body ({} when empty). */
  body: unknown;
  /** The Idempotency-Key header, checked, if sent. */
  key?: string;
  /** The request's path and body bytes: what an Idempotency-Key is bound to. */
  request: string;
}

/** Runs one fulfiller API call; every failure is a D1 body (an unexpected one 500, logged by request id only). */
export async function serveFulfiller(req: Request, run: (call: FulfillerCall) => Promise<object>): Promise<Response> {
  const requestId = crypto.randomUUID();
  let res: Response;
  try {
    refuseDeclaredOversize(req.headers.get("content-length"));
    const token = await authenticateFulfiller(req.headers.get("authorization"));
    const raw = await readBody(req.headers.get("content-length"), req.body ? Readable.fromWeb(req.body as ReadableStream) : null);
    const keyHeader = req.headers.get("idempotency-key");
    const key = keyHeader === null ? undefined : IdempotencyKeySchema.parse(keyHeader);
    const text = raw.toString("utf8");
    res = jsonResponse(
      await run({ token, ip: clientIp(req.headers), body: parseBody(text), key, request: `${new URL(req.url).pathname}\n${text}` }),
    );
  } catch (err) {
    res = errorResponse(err, requestId);
  }
  res.headers.set(HEADER_REQUEST_ID, requestId);
  res.headers.set("Cache-Control", "no-store");
  return res;
}

function parseBody(text: string): unknown {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw appError("invalid_json", "the body is not valid JSON");
  }
}
