import crypto from "node:crypto";

// Issue 37.2: an ACG-Faka shop docking us, as its own client code reads our
// answers (lizhipay/acg-faka 3.6.0, app/Service/Bind/Shared.php and the admin
// import's checks in app/Controller/Admin/Api/Store.php). Written apart from
// our server's code (lib/acg), PHP's rules redone here: http_build_query's
// RFC 1738 encoding for the body and the signature, urldecode, md5; `code`
// must be 200; each call's data checked as their code uses it (is_numeric
// amounts, `stock` a string for their strict-typed getItemStock).

export type PhpValue = string | number | null | PhpValue[] | { [k: string]: PhpValue };
export type PhpArray = Record<string, PhpValue>;

export class AcgClientError extends Error {
  override name = "AcgClientError";
}

/** PHP urlencode: everything but [A-Za-z0-9_.-] as %XX (upper case), a space as `+`. */
export function phpUrlencode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.-]/.test(c)) out += c;
    else if (byte === 0x20) out += "+";
    else out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

/** PHP http_build_query (arg separator `&`, RFC 1738): null skipped, arrays as key[sub], empty arrays nothing. */
export function httpBuildQuery(data: PhpArray, prefix?: string): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(data)) {
    const key = prefix === undefined ? phpUrlencode(k) : `${prefix}%5B${phpUrlencode(k)}%5D`;
    if (v === null) continue;
    if (typeof v === "object") {
      const nested = httpBuildQuery(v as PhpArray, key);
      if (nested) parts.push(nested);
    } else parts.push(`${key}=${phpUrlencode(String(v))}`);
  }
  return parts.join("&");
}

/** PHP urldecode (a stray `%` kept), to bytes. */
export function phpUrldecodeBytes(text: string): Buffer {
  const out: number[] = [];
  const src = Buffer.from(text, "utf8");
  for (let i = 0; i < src.length; i++) {
    if (src[i] === 0x2b) out.push(0x20);
    else if (src[i] === 0x25 && /^[0-9A-Fa-f]{2}$/.test(src.subarray(i + 1, i + 3).toString("latin1"))) {
      out.push(parseInt(src.subarray(i + 1, i + 3).toString("latin1"), 16));
      i += 2;
    } else out.push(src[i]);
  }
  return Buffer.from(out);
}

/** Str::generateSignature: unset sign, ksort, drop '' values, md5(urldecode(http_build_query . "&key=" . key)). */
export function generateSignature(data: PhpArray, appKey: string): string {
  const sorted: PhpArray = {};
  for (const k of Object.keys(data).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))) {
    if (k !== "sign" && data[k] !== "") sorted[k] = data[k];
  }
  return crypto
    .createHash("md5")
    .update(phpUrldecodeBytes(httpBuildQuery(sorted) + "&key=" + appKey))
    .digest("hex");
}

const isNumeric = (v: unknown) =>
  typeof v === "number" || (typeof v === "string" && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(v));
const stripTags = (s: string) => s.replace(/<[^>]*>/g, "");
/** PHP's (string) of a JSON scalar; an array or object is not a string their code could use. */
const phpString = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : v == null ? "" : "Array");

export interface AcgClient {
  /** Shared::post: app_id and app_key added, signed, form POST; `data` of a code-200 answer. */
  post(path: string, data?: PhpArray): Promise<unknown>;
  connect(): Promise<{ shopName: string; balance: number }>;
  items(): Promise<{ name: string; children: { id: number; name: string; code: string }[] }[]>;
  item(code: string): Promise<Record<string, unknown>>;
  stock(code: string): Promise<string>;
  valuation(code: string, num: number): Promise<string | number>;
  trade(code: string, num: number, requestNo: string): Promise<string>;
}

/** `domain`: what their operator typed (https://our.site/acg); `headers`: extra request headers (proxy tests). */
export function acgClient(domain: string, appId: string, appKey: string, headers: Record<string, string> = {}): AcgClient {
  const post = async (path: string, data: PhpArray = {}) => {
    const body: PhpArray = { ...data, app_id: appId, app_key: appKey };
    body.sign = generateSignature(body, appKey);
    const res = await fetch(domain + path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: httpBuildQuery(body),
      redirect: "manual",
    });
    const result = JSON.parse(await res.text()) as { code?: unknown; msg?: unknown; data?: unknown };
    if (result.code != 200) throw new AcgClientError(stripTags(phpString(result.msg)) || "连接失败");
    return result.data;
  };
  return {
    post,
    async connect() {
      const c = (await post("/shared/authentication/connect")) as Record<string, unknown>;
      // Store.php sharedConnectResult.
      if (typeof c.shopName !== "string" || c.shopName.trim() === "" || !isNumeric(c.balance))
        throw new AcgClientError("远端店铺返回的数据格式不正确");
      return { shopName: c.shopName, balance: Number(c.balance) };
    },
    async items() {
      const groups = await post("/shared/commodity/items");
      if (!Array.isArray(groups)) throw new AcgClientError("远端商品分类数据格式不正确");
      return groups.map((g: Record<string, unknown>) => {
        if (typeof g.name !== "string" || !Array.isArray(g.children)) throw new AcgClientError("远端商品分类结构不正确");
        // Store.php remoteItemTree: a positive integer id, a code of 1-64 characters without white space.
        const children = (g.children as Record<string, unknown>[]).map((i) => {
          const id = typeof i.id === "number" ? i.id : typeof i.id === "string" && /^\d+$/.test(i.id) ? Number(i.id) : NaN;
          const code = phpString(i.code ?? i.id).trim();
          if (!(id >= 1) || code === "" || code.length > 64 || /[\s\u007f]/.test(code) || typeof i.name !== "string")
            throw new AcgClientError("bad item row");
          return { id, name: i.name, code };
        });
        return { name: g.name, children };
      });
    },
    async item(code) {
      const a = (await post("/shared/commodity/item", { code })) as Record<string, unknown>;
      // Store.php remoteItem: numeric prices, integer flags and stock, widget JSON, config an INI string.
      for (const f of ["price", "user_price"]) if (!isNumeric(a[f] ?? 0)) throw new AcgClientError(`${f} not numeric`);
      for (const f of ["draft_status", "seckill_status", "stock", "minimum", "purchase_count"]) {
        const v = a[f] ?? 0;
        if (!(Number.isInteger(v) || (typeof v === "string" && /^-?\d+$/.test(v)))) throw new AcgClientError(`${f} not an integer`);
      }
      if (typeof a.widget !== "string" || !Array.isArray(JSON.parse(a.widget))) throw new AcgClientError("widget");
      if (typeof (a.config ?? "") !== "string") throw new AcgClientError("config");
      return a;
    },
    async stock(code) {
      const s = (await post("/shared/commodity/stock", { code, race: null, sku: [] })) as Record<string, unknown>;
      const stock = s.stock ?? "0";
      // getItemStock(): string under strict_types: an int here is a TypeError in their shop.
      if (typeof stock !== "string") throw new AcgClientError("TypeError: getItemStock(): Return value must be of type string");
      return stock;
    },
    async valuation(code, num) {
      const d = (await post("/shared/commodity/valuation", { code, num, race: "", sku: [], card_id: 0 })) as Record<string, unknown>;
      const price = d.price ?? 0;
      if (!isNumeric(price)) throw new AcgClientError("price not numeric");
      return price as string | number;
    },
    async trade(code, num, requestNo) {
      const t = (await post("/shared/commodity/trade", {
        shared_code: code,
        contact: "buyer@example.test",
        num,
        card_id: 0,
        device: 0,
        password: "",
        race: "",
        request_no: requestNo,
        sku: [],
      })) as Record<string, unknown>;
      return phpString(t.secret);
    },
  };
}
