import type { DeliveryFormat } from "../generated/prisma/enums";

// D14: card keys are checked against the product's delivery format when they
// enter stock (import, admin paste/upload), never when they are sold. The rules
// are written down in docs/decisions/0001-delivery-formats.md.

export const DEFAULT_DELIMITER = "----";
export const MAX_CARD_KEY_LENGTH = 1024;
export const MAX_DELIMITER_LENGTH = 16;
const MAX_APPLE_PARTS = 8;

// A card key is one line of the delivered payload (D21 joins keys with "\n"),
// so line breaks and other control characters would corrupt a delivery.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
// An Apple ID is an e-mail address; a loose check is enough to catch keys
// pasted into the wrong product or with the parts swapped.
const APPLE_ID = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type CardKeyCheck = { ok: true; key: string } | { ok: false; reason: string };

/** A delimiter must be usable to split a single line: short, non-blank, no control characters. */
export function checkDelimiter(delimiter: string): string | undefined {
  if (delimiter.trim() === "") return "delimiter must not be empty or blank";
  if (delimiter.length > MAX_DELIMITER_LENGTH) return `delimiter must be at most ${MAX_DELIMITER_LENGTH} characters`;
  if (CONTROL_CHARS.test(delimiter)) return "delimiter must not contain line breaks or control characters";
  return undefined;
}

/**
 * Checks one card key and returns it normalised (surrounding whitespace
 * trimmed, which is also what de-duplication sees). The reason never contains
 * the key itself: callers put it in error messages and logs.
 */
export function checkCardKey(raw: string, format: DeliveryFormat, delimiter = DEFAULT_DELIMITER): CardKeyCheck {
  const key = raw.trim();
  if (key === "") return { ok: false, reason: "card key is empty" };
  if (key.length > MAX_CARD_KEY_LENGTH) return { ok: false, reason: `card key is longer than ${MAX_CARD_KEY_LENGTH} characters` };
  if (CONTROL_CHARS.test(key)) return { ok: false, reason: "card key contains a line break or control character" };
  if (format === "text") return { ok: true, key };

  const parts = key.split(delimiter);
  const blank = parts.findIndex((p) => p.trim() === "");
  const sep = JSON.stringify(delimiter);
  switch (format) {
    case "account_password":
    case "card_password": {
      const what = format === "account_password" ? "account and password" : "card number and password";
      if (parts.length !== 2 || blank !== -1) {
        return {
          ok: false,
          reason: `${format} key must be ${what}, two non-empty parts separated by ${sep} (found ${parts.length} part(s))`,
        };
      }
      if (format === "card_password" && /\s/.test(parts[0].trim())) {
        return { ok: false, reason: "card_password key: the card number must not contain spaces" };
      }
      return { ok: true, key };
    }
    case "apple_account": {
      if (parts.length < 2 || parts.length > MAX_APPLE_PARTS || blank !== -1) {
        return {
          ok: false,
          reason: `apple_account key must be Apple ID and password, then optional extra parts, 2 to ${MAX_APPLE_PARTS} non-empty parts separated by ${sep} (found ${parts.length} part(s))`,
        };
      }
      if (!APPLE_ID.test(parts[0].trim()))
        return { ok: false, reason: "apple_account key: the first part must be an Apple ID (an e-mail address)" };
      return { ok: true, key };
    }
    default:
      return { ok: false, reason: `unknown delivery format ${String(format)}` };
  }
}
