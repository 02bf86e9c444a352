// Issue 39: fulfiller tokens for an operator's own scripts (docs/fulfiller.md).
import { z } from "zod";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { FulfillerTokenInputSchema, TokenIdSchema } from "../../lib/fulfiller/fulfiller-input";
import { command } from "./command";

export const commands = {
  "fulfiller:create": command({
    usage: "fulfiller:create --name N [--product-ids 1,2] [--webhook-url U]",
    options: { name: { type: "string" }, "product-ids": { type: "string" }, "webhook-url": { type: "string" } },
    input: (v) => ({
      name: v.name,
      productIds:
        typeof v["product-ids"] === "string" ? v["product-ids"].split(",").map((s) => (/^\s*\d+\s*$/.test(s) ? Number(s) : s)) : undefined,
      webhookUrl: v["webhook-url"],
    }),
    flagOf: (path) => ({ productIds: "product-ids", webhookUrl: "webhook-url" })[String(path[0])],
    schema: FulfillerTokenInputSchema,
    // The token (and webhook_secret) are printed here once: only their hash and sealed copy are kept.
    run: async (input) => (await import("../../lib/fulfiller/create-fulfiller-token")).createFulfillerToken(input, { actor }),
  }),
  "fulfiller:list": command({
    usage: "fulfiller:list",
    options: {},
    input: (v) => v,
    schema: z.object({}),
    run: async () => ({ tokens: await (await import("../../lib/fulfiller/list-fulfiller-tokens")).listFulfillerTokens() }),
  }),
  "fulfiller:revoke": command({
    usage: "fulfiller:revoke --id N",
    options: { id: { type: "string" } },
    input: (v) => v,
    schema: z.object({ id: TokenIdSchema }),
    run: async (a) => (await import("../../lib/fulfiller/revoke-fulfiller-token")).revokeFulfillerToken({ id: a.id, actor }),
  }),
};
