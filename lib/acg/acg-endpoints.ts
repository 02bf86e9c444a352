import { getCachedSettings } from "../settings/get-cached-settings";
import { db } from "../db/client";
import { formatAmount } from "../protocol/amount";
import type { AcgCredential } from "./authenticate-acg";
import { findAcgItem, listAcgItems, type AcgItem } from "./acg-items";
import { acgTrade } from "./acg-trade";
import type { FormFields } from "./php-form";
import { refuse } from "./refusal";

// The shared-store calls an unmodified ACG-Faka shop makes (decision 0091),
// each answering the `data` their client reads (app/Service/Bind/Shared.php;
// the admin import's checks in app/Controller/Admin/Api/Store.php). Amounts
// leave as two-decimal strings made from integer fen (formatAmount), which
// their is_numeric checks and Decimal accept.

type Handler = (credential: AcgCredential, fields: FormFields) => Promise<unknown>;

export const ACG_ENDPOINTS: Record<string, Handler> = {
  "authentication/connect": async (credential) => {
    const [settings, user] = await Promise.all([
      getCachedSettings(),
      db().user.findUniqueOrThrow({ where: { id: credential.userId }, select: { balanceCents: true } }),
    ]);
    // Store.php sharedConnectResult: a non-empty name and a numeric balance.
    return { shopName: settings.siteName || "ZCard", balance: formatAmount(user.balanceCents) };
  },
  "commodity/items": async (credential) => {
    const groups = new Map<number, { id: number; name: string; children: unknown[] }>();
    for (const item of await listAcgItems(credential)) {
      const group = groups.get(item.categoryId) ?? { id: item.categoryId, name: item.categoryName || "-", children: [] };
      group.children.push(itemWire(item));
      groups.set(item.categoryId, group);
    }
    return [...groups.values()];
  },
  "commodity/item": async (credential, fields) => itemWire(await offered(credential, fields)),
  // Their getItemStock is declared `: string` under strict_types (Bind/Shared.php line 468): a number would be a TypeError.
  "commodity/stock": async (credential, fields) => ({ stock: String((await offered(credential, fields)).stock) }),
  "commodity/valuation": async (credential, fields) => {
    const item = await offered(credential, fields);
    return { price: formatAmount(item.unitPriceCents * BigInt(quantity(fields, "num"))) };
  },
  "commodity/trade": async (credential, fields) => {
    noVariant(fields);
    const code = text(fields, "shared_code", /^[1-9][0-9]{0,9}$/, "shared_code");
    const requestNo = text(fields, "request_no", /^[\x21-\x7e]{1,64}$/, "request_no (1-64 printable ASCII characters)");
    const order = await acgTrade(credential, { code, quantity: quantity(fields, "num"), requestNo });
    const lines = order.fulfillment?.lines ?? [];
    return {
      url: "",
      amount: formatAmount(order.amountCents),
      tradeNo: order.orderNo,
      // Their client keeps `secret` as the delivery (line 363); one key a line.
      secret: lines.length ? lines.join("\n") : `order ${order.orderNo}: ${order.status}`,
    };
  },
};

/** The item row their import reads (Store.php remoteItemTree and remoteItem); `code` names the SKU. */
function itemWire(item: AcgItem) {
  const price = formatAmount(item.unitPriceCents);
  return {
    id: item.skuId,
    code: String(item.skuId),
    name: item.name,
    description: item.description,
    cover: "",
    price,
    user_price: price,
    factory_price: price,
    delivery_way: 0,
    contact_type: 0,
    password_status: 0,
    sort: 0,
    seckill_status: 0,
    draft_status: 0, // never pre-selected cards: their client never asks for drafts
    inventory_hidden: 0,
    only_user: 0,
    purchase_count: 0,
    minimum: 0,
    maximum: 0,
    widget: "[]",
    config: "",
    stock: item.stock,
  };
}

async function offered(credential: AcgCredential, fields: FormFields): Promise<AcgItem> {
  noVariant(fields);
  const code = text(fields, "code", /^[1-9][0-9]{0,9}$/, "code");
  const item = await findAcgItem(code, credential);
  if (!item) throw refuse("item not found (商品不存在)");
  return item;
}

function text(fields: FormFields, name: string, pattern: RegExp, what: string): string {
  const v = fields.get(name);
  if (typeof v !== "string" || !pattern.test(v)) throw refuse(`missing or invalid ${what} (参数错误)`);
  return v;
}

function quantity(fields: FormFields, name: string): number {
  const n = Number(text(fields, name, /^[1-9][0-9]{0,6}$/, `${name} (1-1000000)`));
  if (n > 1_000_000) throw refuse(`missing or invalid ${name} (1-1000000) (参数错误)`);
  return n;
}

/** Our items have no ACG variants (race, sku) nor pre-selected cards (card_id): a request naming one is refused. */
function noVariant(fields: FormFields): void {
  const race = fields.get("race");
  const sku = fields.get("sku");
  const card = fields.get("card_id");
  if ((race !== undefined && race !== "") || (sku !== undefined && sku.length > 0) || (card !== undefined && card !== "" && card !== "0")) {
    throw refuse("this item has no variants or pre-selected cards (此商品无规格)");
  }
}
