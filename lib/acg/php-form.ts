// ACG-Faka's requests as PHP reads them (decision 0091): a form body
// (application/x-www-form-urlencoded, what Guzzle's `form_params` sends) whose
// fields PHP turns into $_POST, one level of `name[key]` nesting included
// (their `sku` array). Parsed strictly: every input is hostile, and a field
// we cannot read exactly as PHP would is refused rather than guessed at.

/** A top-level field: a string, or a `name[key]` array with its entries in the order sent. */
export type FormValue = string | [key: string, value: string][];
export type FormFields = Map<string, FormValue>;

export class FormError extends Error {
  override name = "FormError";
}

const MAX_FIELDS = 64;
// A letter or underscore first: never a numeric key (PHP makes those integers and sorts them otherwise),
// and never a `.` or space (PHP rewrites those to `_` in $_POST names).
const NAME = /^([A-Za-z_][A-Za-z0-9_]{0,63})(?:\[([^[\]]{0,64})\])?$/;

/** `+` is a space and %XX a byte (RFC 1738, PHP's urldecode); a malformed escape or bad UTF-8 is refused. */
function decodeComponent(latin1: string): string {
  const bytes = urldecodeBytes(Buffer.from(latin1, "latin1"), true);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new FormError("a field is not UTF-8");
  }
}

/** The body as PHP's $_POST would hold it; a repeated name (PHP keeps the last silently) is refused. */
/** `body`: the raw bytes as latin1 text (one character per byte), so escapes are decoded before UTF-8 is. */
export function parseForm(body: string): FormFields {
  const fields: FormFields = new Map();
  if (body === "") return fields;
  const pairs = body.split("&");
  if (pairs.length > MAX_FIELDS * 4) throw new FormError("too many fields");
  for (const pair of pairs) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawName = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? "" : decodeComponent(pair.slice(eq + 1));
    const m = NAME.exec(rawName);
    if (!m) throw new FormError(`field name not accepted: ${JSON.stringify(rawName.slice(0, 40))}`);
    const [, name, key] = m;
    const existing = fields.get(name);
    if (key === undefined) {
      if (existing !== undefined) throw new FormError(`field ${name} sent twice`);
      fields.set(name, value);
      continue;
    }
    if (typeof existing === "string") throw new FormError(`field ${name} sent twice`);
    const entries = existing ?? [];
    // `name[]` appends with the next integer index, as PHP does.
    const index = key === "" ? String(entries.filter(([k]) => /^(0|[1-9][0-9]*)$/.test(k)).length) : key;
    if (entries.some(([k]) => k === index)) throw new FormError(`field ${name}[${index}] sent twice`);
    entries.push([index, value]);
    fields.set(name, entries);
  }
  if (fields.size > MAX_FIELDS) throw new FormError("too many fields");
  return fields;
}

/**
 * PHP's urldecode: `+` → space, %XX → that byte, anything else (a stray `%`)
 * kept. Their signature decodes the whole signed text, so it applies to the
 * appended `&key=<app_key>` too (app/Util/Str.php line 106).
 */
export function phpUrldecode(text: string): Buffer {
  return urldecodeBytes(Buffer.from(text, "utf8"), false);
}

function urldecodeBytes(src: Buffer, strict: boolean): Buffer {
  const out = Buffer.alloc(src.length);
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === 0x2b) out[n++] = 0x20;
    else if (c === 0x25 && i + 2 < src.length && isHex(src[i + 1]) && isHex(src[i + 2])) {
      out[n++] = parseInt(String.fromCharCode(src[i + 1], src[i + 2]), 16);
      i += 2;
    } else if (c === 0x25 && strict) throw new FormError("malformed percent-encoding");
    else out[n++] = c;
  }
  return out.subarray(0, n);
}

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
