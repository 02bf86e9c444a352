import { pathOf } from "../../lib/protocol/endpoints";
import { MAX_BODY_BYTES } from "../../lib/protocol/headers";
import { type Context, expectError, expectOk, expectThat } from "./context";

// Signing (section 5), every authentication failure (D6, D7, D9), replay (D8),
// D1 bodies and the body limit (D30).

export interface Check {
  name: string;
  run: (ctx: Context) => void | Promise<void>;
}

const now = () => Math.floor(Date.now() / 1000);

const unauthorized = (name: string, bend: (ctx: Context) => Parameters<Context["send"]>[0]): Check => ({
  name: `D7: ${name} → 401 unauthorized`,
  run: async (ctx) => expectError(await ctx.send(bend(ctx)), 401, "unauthorized"),
});

export const authChecks: Check[] = [
  {
    name: "section 5: a signed GET ping answers 200 with the account",
    run: async (ctx) => expectOk(await ctx.send({ path: pathOf("ping") }), `GET ${pathOf("ping")}`),
  },
  {
    name: "section 5: a signed POST ping with a JSON body answers 200 (the body's MD5 is signed)",
    run: async (ctx) =>
      expectOk(await ctx.send({ method: "POST", path: pathOf("ping"), body: '{"hello":"世界"}' }), `POST ${pathOf("ping")}`),
  },
  {
    name: "section 9: the alternate prefix answers when its own path is signed",
    run: async (ctx) => expectOk(await ctx.send({ path: pathOf("ping"), prefix: ctx.altPrefix }), `GET ${ctx.altPrefix}${pathOf("ping")}`),
  },
  unauthorized("missing Svc-Api-Key", () => ({ path: pathOf("ping"), headers: { "Svc-Api-Key": undefined } })),
  unauthorized("missing Svc-Timestamp", () => ({ path: pathOf("ping"), headers: { "Svc-Timestamp": undefined } })),
  unauthorized("missing Svc-Signature", () => ({ path: pathOf("ping"), headers: { "Svc-Signature": undefined } })),
  unauthorized("unknown API key", () => ({ path: pathOf("ping"), apiKey: `unknown-${now()}` })),
  unauthorized("signature made with a wrong secret", (ctx) => ({ path: pathOf("ping"), secret: ctx.opts.apiSecret + "x" })),
  unauthorized("timestamp 120 s in the past", () => ({ path: pathOf("ping"), timestamp: now() - 120 })),
  unauthorized("timestamp 120 s in the future", () => ({ path: pathOf("ping"), timestamp: now() + 120 })),
  unauthorized("non-integer timestamp", () => ({ path: pathOf("ping"), timestamp: `${now()}.5` })),
  unauthorized("upper-case hex signature (D6)", () => ({ path: pathOf("ping"), mapSignature: (s) => s.toUpperCase() })),
  unauthorized("signature over the other prefix's path", (ctx) => ({ path: pathOf("ping"), signPath: ctx.altPrefix + pathOf("ping") })),
  unauthorized("signature over another body", () => ({ method: "POST", path: pathOf("ping"), body: "{}", signBody: '{"a":1}' })),
  {
    name: "D7: authentication failures all read the same (no hint which part failed)",
    run: async (ctx) => {
      const a = await ctx.send({ path: pathOf("ping"), secret: "wrong" });
      const b = await ctx.send({ path: pathOf("ping"), apiKey: `unknown-${now()}` });
      expectThat(a.status === 401 && a.text === b.text, `bodies differ: ${a.text} / ${b.text}`);
    },
  },
  {
    name: "D8: a repeated signed request is 409 replay_detected in Profile P; Profile U answers it",
    run: async (ctx) => {
      const timestamp = ctx.timestamp("GET", `${ctx.prefix}/categories`);
      expectOk(await ctx.send({ path: pathOf("listCategories"), timestamp }), "first request");
      const again = await ctx.send({ path: pathOf("listCategories"), timestamp });
      if (ctx.opts.profile === "P") expectError(again, 409, "replay_detected");
      else expectOk(again, "repeated request (Profile U has no replay rule)");
    },
  },
  {
    name: "D30: a body above 1 MiB is 413 request_too_large",
    run: async (ctx) =>
      expectError(await ctx.send({ method: "POST", path: pathOf("ping"), body: " ".repeat(MAX_BODY_BYTES + 1) }), 413, "request_too_large"),
  },
];
