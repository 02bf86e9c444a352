// Issue 38 (decision 0094): contract prices, quantity tiers and credit lines.
import { z } from "zod";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { formatAmount, NonNegativeAmountInputSchema } from "../../lib/protocol/amount";
import { ListContractPricesSchema } from "../../lib/prices/list-contract-prices";
import { tiersText } from "../../lib/prices/price-input";
import { SetContractPriceSchema } from "../../lib/prices/set-contract-price";
import { SetPriceTiersSchema } from "../../lib/prices/set-price-tiers";
import { EmailSchema } from "../../lib/users/email";
import { command, UsageError } from "./command";

const tiersWire = (tiers: readonly { minQuantity: number; priceCents: bigint }[]) =>
  tiers.map((t) => ({ min_quantity: t.minQuantity, price_amount: formatAmount(t.priceCents) }));

/** Exactly one of a value and --clear. */
function valueOrClear(v: Record<string, unknown>, name: string): unknown {
  if (v.clear === true && v[name] !== undefined) throw new UsageError(`--${name} and --clear: give one of them`);
  if (v.clear !== true && v[name] === undefined) throw new UsageError(`--${name} is required (or --clear)`);
  return v.clear === true ? null : v[name];
}

export const commands = {
  "price:contract:set": command({
    usage: "price:contract:set --email E --sku-code C (--price 9.50 | --clear)",
    options: { email: { type: "string" }, "sku-code": { type: "string" }, price: { type: "string" }, clear: { type: "boolean" } },
    input: (v) => ({ email: v.email, skuCode: v["sku-code"], price: valueOrClear(v, "price") }),
    flagOf: (path) => ({ skuCode: "sku-code" })[String(path[0])],
    schema: SetContractPriceSchema,
    run: async (input) => {
      const { setContractPrice } = await import("../../lib/prices/set-contract-price");
      const r = await setContractPrice(input, { actor });
      return { email: r.email, sku_code: r.skuCode, sku_id: r.skuId, price: r.price, previous: r.previous };
    },
  }),
  "price:contract:list": command({
    usage: "price:contract:list [--email E] [--sku-code C]",
    options: { email: { type: "string" }, "sku-code": { type: "string" } },
    input: (v) => ({ email: v.email, skuCode: v["sku-code"] }),
    flagOf: (path) => ({ skuCode: "sku-code" })[String(path[0])],
    schema: ListContractPricesSchema,
    run: async (input) => {
      const { listContractPrices } = await import("../../lib/prices/list-contract-prices");
      const rows = await listContractPrices(input);
      return {
        contract_prices: rows.map((r) => ({
          email: r.email,
          sku_code: r.skuCode,
          sku_id: r.skuId,
          price: formatAmount(r.priceCents),
          updated_at: r.updatedAt.toISOString(),
        })),
      };
    },
  }),
  "price:tiers:set": command({
    usage: "price:tiers:set --sku-code C (--tiers 10:9.50,100:9.00 | --clear)",
    options: { "sku-code": { type: "string" }, tiers: { type: "string" }, clear: { type: "boolean" } },
    input: (v) => ({ skuCode: v["sku-code"], tiers: valueOrClear(v, "tiers") ?? "" }),
    flagOf: (path) => ({ skuCode: "sku-code" })[String(path[0])],
    schema: SetPriceTiersSchema,
    run: async (input) => {
      const { setPriceTiers } = await import("../../lib/prices/set-price-tiers");
      const r = await setPriceTiers(input, { actor });
      return { sku_code: r.skuCode, sku_id: r.skuId, tiers: tiersWire(r.tiers), previous: tiersText(r.previous) };
    },
  }),
  "user:credit": command({
    usage: "user:credit --email E --limit 500.00   (0 removes the credit line)",
    options: { email: { type: "string" }, limit: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: EmailSchema, limit: NonNegativeAmountInputSchema }),
    run: async (input) => {
      const { setCreditLimit } = await import("../../lib/users/set-credit-limit");
      const r = await setCreditLimit(input, { actor });
      return { id: r.userId, email: r.email, credit_limit: r.creditLimit, previous: r.previous, balance: r.balance };
    },
  }),
};
