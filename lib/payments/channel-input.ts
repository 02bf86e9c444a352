import { z } from "zod";
import { DRIVER_NAMES } from "./drivers/driver";
import { isAmount, parseAmount } from "../protocol/amount";

// Issue 36: what an operator gives for a channel (CLI, console), checked in one place.

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "is required")
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\p{Cc}]*$/u, "must not contain control characters");

const httpUrl = z
  .string()
  .trim()
  .max(500, "must be at most 500 characters")
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, "must be an http(s) URL without credentials, query or fragment, like https://pay.example.com")
  .transform((s) => s.replace(/\/+$/, ""));

const amount = z
  .string()
  .trim()
  .refine(
    (s) => isAmount(s) && parseAmount(s) > 0n && parseAmount(s) <= 100_000_000n,
    'must be an amount above 0.00 and at most 1000000.00, like "10.00"',
  )
  .transform((s) => parseAmount(s));

export const ChannelInputSchema = z
  .object({
    driver: z.enum(DRIVER_NAMES, { message: `must be one of ${DRIVER_NAMES.join(", ")}` }),
    name: text(60),
    gatewayUrl: httpUrl.optional(),
    merchantId: text(64).optional(),
    /** The merchant key, API token or Stripe secret key (read from a file). */
    key: text(500),
    webhookSecret: text(500).optional(),
    apiBase: httpUrl.optional(),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z][A-Za-z0-9_]{1,19}$/, "must be a currency code like CNY, usd or USDT_TRC20")
      .default("CNY"),
    min: amount.default(parseAmount("1.00")),
    max: amount.default(parseAmount("50000.00")),
    expireMinutes: z.coerce.number().int().min(5, "must be 5 to 1440").max(1440, "must be 5 to 1440").default(30),
  })
  .superRefine((c, ctx) => {
    const need = (field: "gatewayUrl" | "merchantId" | "webhookSecret", why: string) => {
      if (!c[field]) ctx.addIssue({ code: "custom", path: [field], message: `is required for ${c.driver} (${why})` });
    };
    if (c.driver !== "stripe") need("gatewayUrl", "where the gateway is");
    if (c.driver === "epay") need("merchantId", "the pid");
    if (c.driver === "stripe") need("webhookSecret", "the webhook signing secret");
    if (c.min > c.max) ctx.addIssue({ code: "custom", path: ["min"], message: "must not be above max" });
  });
export type ChannelSettings = z.output<typeof ChannelInputSchema>;
