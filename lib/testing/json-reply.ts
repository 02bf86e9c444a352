import { HEADER_REQUEST_ID } from "../protocol/headers";

/** A supplier API answer as tests compare it: the status and the parsed JSON body. */
export async function jsonReply(res: Promise<Response>): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await res;
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

/** jsonReply, and the X-Request-Id the answer carried. */
export async function jsonReplyWithRequestId(res: Promise<Response>) {
  const r = await res;
  return { ...(await jsonReply(Promise.resolve(r))), requestId: r.headers.get(HEADER_REQUEST_ID) };
}
