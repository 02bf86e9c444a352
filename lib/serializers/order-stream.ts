import crypto from "node:crypto";

/**
 * Issue 40.3 (decision 0095): an order's wire JSON written as a stream, for an
 * order whose keys are read in batches (lib/order-read/order-key-batches.ts).
 * The bytes are exactly JSON.stringify(wire) with `fulfillment.payload` = the
 * lines joined by "\n" and `fulfillment.delivery_data` = the lines (when it is
 * an array; a dialect's null stays null): the wire is serialized once with a
 * placeholder in each of the two places, and the lines are written into the
 * gaps, JSON-escaped one by one (JSON.stringify of a string escapes each
 * character alone, so escaping the lines and joining them with `\n` is
 * escaping their join). The lines are read twice, once per place, so no list
 * of all of them is ever held.
 */
export function orderWireChunks(
  wire: object,
  batches: () => AsyncIterable<string[]> | Iterable<string[]>,
): () => AsyncGenerator<Uint8Array> {
  const f = (wire as { fulfillment?: { payload: string; delivery_data: string[] | null } }).fulfillment;
  if (!f || typeof f.payload !== "string") throw new Error("orderWireChunks: the wire has no fulfillment payload");
  const withData = Array.isArray(f.delivery_data);
  const text = JSON.stringify({ ...wire, fulfillment: { ...f, payload: PAYLOAD, delivery_data: withData ? [DATA] : null } });
  const [head, afterPayload] = splitOnce(text, JSON.stringify(PAYLOAD));
  const [middle, tail] = withData ? splitOnce(afterPayload, JSON.stringify([DATA])) : [afterPayload, ""];
  return async function* () {
    yield Buffer.from(head + '"');
    yield* joined(batches(), escaped, "\\n");
    yield Buffer.from('"' + middle + (withData ? "[" : ""));
    if (!withData) return;
    yield* joined(batches(), (line) => JSON.stringify(line), ",");
    yield Buffer.from("]" + tail);
  };
}

/** Every line, written as `each` makes it, with `separator` between them (none before the first nor after the last). */
async function* joined(
  batches: AsyncIterable<string[]> | Iterable<string[]>,
  each: (line: string) => string,
  separator: string,
): AsyncGenerator<Uint8Array> {
  let first = true;
  for await (const lines of batches) {
    if (lines.length === 0) continue;
    yield Buffer.from((first ? "" : separator) + lines.map(each).join(separator));
    first = false;
  }
}

// Random per process: no title, order number or trace id can hold them.
const PAYLOAD = `payload-${crypto.randomBytes(16).toString("hex")}`;
const DATA = `data-${crypto.randomBytes(16).toString("hex")}`;

/** A line as it stands inside a JSON string (without the quotes). */
const escaped = (line: string) => JSON.stringify(line).slice(1, -1);

function splitOnce(text: string, mark: string): [string, string] {
  const at = text.indexOf(mark);
  if (at < 0 || text.indexOf(mark, at + 1) >= 0) throw new Error("orderWireChunks: placeholder not found exactly once");
  return [text.slice(0, at), text.slice(at + mark.length)];
}
