/**
 * Reads a body whole, but never more than `limit` bytes: a declared
 * Content-Length above the limit is refused before reading anything, and a
 * chunked or lying body is counted while it streams and abandoned at the
 * first byte over. One rule for what we receive (D30) and what upstreams
 * answer (issue 8.3).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  { declaredLength, limit, tooLarge }: { declaredLength: string | null; limit: number; tooLarge: () => Error },
): Promise<Buffer> {
  if (declaredLength !== null && /^\d+$/.test(declaredLength.trim()) && Number(declaredLength) > limit) {
    await body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
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
