import { MAX_BODY_BYTES } from "../protocol/headers";
import { appError } from "../errors";

// The rest of the body is never read, so the connection cannot be reused: ask to close it.
const tooLarge = () =>
  appError("request_too_large", `request body is larger than ${MAX_BODY_BYTES} bytes`, { headers: { Connection: "close" } });

/**
 * Reads the raw body bytes, refusing more than `limit` bytes (D30) before the
 * body is read whole: a declared Content-Length above the limit is refused
 * without reading, and a chunked or lying body is counted while it streams
 * and abandoned at the first byte over.
 */
export async function readBodyLimited(req: Request, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
