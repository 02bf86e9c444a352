/**
 * A body that must arrive in time (issue 22.2): after `timeoutMs` the reading
 * stops and `timedOut()` is thrown.
 */
export interface Deadline {
  timeoutMs: number;
  timedOut: () => Error;
}

/**
 * Reads a body whole, but never more than `limit` bytes: a declared
 * Content-Length above the limit is refused before reading anything, and a
 * chunked or lying body is counted while it streams and abandoned at the
 * first byte over. One rule for what we receive (D30) and what upstreams
 * answer (issue 8.3).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  {
    declaredLength,
    limit,
    tooLarge,
    deadline,
  }: { declaredLength: string | null; limit: number; tooLarge: () => Error; deadline?: Deadline },
): Promise<Buffer> {
  if (declaredOver(declaredLength, limit)) {
    await body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  let late = false;
  // Cancelling ends the pending read as if the body had ended; `late` tells the two apart.
  const timer =
    deadline &&
    setTimeout(() => {
      late = true;
      reader.cancel().catch(() => undefined);
    }, deadline.timeoutMs);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (late) throw deadline!.timedOut();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks, total);
}

/** D30: a Content-Length that says more than `limit` bytes are coming. */
export function declaredOver(declaredLength: string | null | undefined, limit: number): boolean {
  return declaredLength != null && /^\d+$/.test(declaredLength.trim()) && Number(declaredLength) > limit;
}

/**
 * readCapped for a Node stream (a supplier API request,
 * lib/supplier-api/endpoint-request.ts). Past the limit it stops listening and pauses
 * the stream without destroying it, so the refusal can still be answered on
 * the same socket.
 */
export function readCappedStream(
  stream: NodeJS.ReadableStream,
  {
    declaredLength,
    limit,
    tooLarge,
    deadline,
  }: { declaredLength: string | undefined; limit: number; tooLarge: () => Error; deadline?: Deadline },
): Promise<Buffer> {
  if (declaredOver(declaredLength, limit)) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const timer =
      deadline &&
      setTimeout(() => {
        stream.pause();
        stop(() => reject(deadline.timedOut()));
      }, deadline.timeoutMs);
    const stop = (settle: () => void) => {
      clearTimeout(timer);
      stream.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total <= limit) return void chunks.push(chunk);
      stream.pause();
      stop(() => reject(tooLarge()));
    };
    const onEnd = () => stop(() => resolve(Buffer.concat(chunks, total)));
    const onError = (err: Error) => stop(() => reject(err));
    const onClose = () => stop(() => reject(new Error("the request was closed before its body ended")));
    stream.on("data", onData).once("end", onEnd).once("error", onError).once("close", onClose);
  });
}
