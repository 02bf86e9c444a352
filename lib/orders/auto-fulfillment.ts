import { decryptText, encryptText } from "../crypto/secret-box";
import type { DeliveryFormat } from "../generated/prisma/enums";
import type { FulfillmentView } from "./order-view";

const FORMATS: readonly DeliveryFormat[] = ["text", "account_password", "card_password", "apple_account"];

/**
 * The delivery result of an `auto` order: the card keys the order took
 * (already marked delivered by createOrder's pick), in id order, as one
 * encrypted Fulfillment payload (a JSON array of lines, D21). Returns the
 * view and the INSERT statement, which createOrder sends together with the
 * debit and COMMIT (one round trip). The statement holds only values made
 * here: an integer id, an enum value and the ciphertext as hex.
 */
export function autoFulfillment({
  orderId,
  deliveryFormat,
  keys,
}: {
  orderId: number;
  deliveryFormat: DeliveryFormat;
  keys: { keyId: bigint; ciphertext: Uint8Array }[];
}): { view: FulfillmentView; sql: string } {
  if (!Number.isSafeInteger(orderId) || !FORMATS.includes(deliveryFormat)) throw new TypeError("bad fulfillment values");
  const lines = [...keys].sort((a, b) => (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0)).map((k) => decryptText(k.ciphertext));
  const payload = Buffer.from(encryptText(JSON.stringify(lines))).toString("hex");
  const sql = `INSERT INTO "Fulfillment" ("orderId", "source", "deliveryFormat", "payloadCiphertext")
    VALUES (${orderId}, 'auto', '${deliveryFormat}', '\\x${payload}'::bytea)`;
  return { view: { source: "auto", deliveryFormat, lines }, sql };
}
