import { readCapped } from "../net/read-capped";

/** Issue 8.3: the most we read of one upstream answer. A catalogue page of 100 products is far below it. */
export const MAX_UPSTREAM_BODY_BYTES = 10 * 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`answer larger than ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * Reads a response body as UTF-8 text, counting bytes as they stream in and
 * aborting the transfer as soon as the count passes `limit`: a hostile or
 * broken upstream cannot make us buffer more than that (a declared
 * Content-Length above the limit is refused before reading anything).
 */
export async function readCappedText(res: Response, limit = MAX_UPSTREAM_BODY_BYTES): Promise<string> {
  const bytes = await readCapped(res.body, {
    declaredLength: res.headers.get("content-length"),
    limit,
    tooLarge: () => new BodyTooLargeError(limit),
  });
  return bytes.toString("utf8");
}
