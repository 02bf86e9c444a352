// What an administrator types to deliver or fail an order by hand (console,
// CLI): checked by deliverOrder/failOrder and, before anything runs, by the
// console actions and the CLI. Kept free of database imports so the CLI can
// check its arguments without loading the services.
import { z } from "zod";

/** A site order number (orderIdByNo trims it too). */
export const OrderNoSchema = z.string().trim().min(1, "is required").max(64, "must be at most 64 characters");

/** Why an order failed: shown to a Profile P buyer as error_message, so short and free of secrets. */
export const FailReasonSchema = z.string().trim().min(1, "is required").max(200, "must be at most 200 characters");

const MAX_PAYLOAD_CHARS = 1_000_000;

/** Non-empty lines, trimmed, CRLF or LF: each becomes one delivery_data entry (D21). */
export function payloadLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** What is delivered by hand: at least one non-empty line, at most a million characters. */
export const DeliveryPayloadSchema = z
  .string()
  .min(1, { error: "is required", abort: true })
  .max(MAX_PAYLOAD_CHARS, { error: "is too long", abort: true })
  .refine((text) => payloadLines(text).length > 0, "has no lines to deliver");
