import { pathOf } from "../../lib/protocol/endpoints";
import { parseAmount } from "../../lib/protocol/amount";
import type { AnyAnswer, PingAnswer, StatementAnswer } from "./answers";
import type { Check } from "./checks-auth";
import { type Context, expectError, expectOk, expectThat } from "./context";

// The balance statement extension (docs/protocol.md "Extensions",
// docs/decisions/0019-balance-statement.md). Read-only. A server without the
// extension answers 404 not_found, and these checks pass as "not offered":
// the specification does not require it.

/** The first page of the statement, or null when the server does not offer it. */
async function statement(ctx: Context, query: string): Promise<StatementAnswer | null> {
  const seen = ctx.shapeProblems.length;
  const r = await ctx.send<StatementAnswer & Partial<AnyAnswer>>({ path: pathOf("getStatement") + query });
  if (r.status === 404 && r.json?.error_code === "not_found") {
    ctx.shapeProblems.splice(seen); // our document lists the extension; its absence is no shape fault
    return null;
  }
  expectOk(r, `GET /statement${query}`);
  return r.json;
}

export const statementChecks: Check[] = [
  {
    name: "extension: the balance statement is newest first and its amounts add up to the ping balance",
    run: async (ctx) => {
      const s = await statement(ctx, "?page_size=100");
      if (!s) return;
      const balance = (await ctx.send<PingAnswer>({ path: pathOf("ping") })).json?.balance;
      expectThat(s.balance === balance, `statement balance ${s.balance} is not the ping balance ${balance}`);
      const ids = s.items.map((i) => i.id);
      expectThat(
        ids.every((id, k) => k === 0 || id < ids[k - 1]),
        "items are not newest first (id descending)",
      );
      if (s.total <= s.items.length) {
        const sum = s.items.reduce((acc, i) => acc + parseAmount(i.amount), 0n);
        expectThat(sum === parseAmount(s.balance), `the amounts add up to ${sum} fen, the balance is ${s.balance}`);
      }
    },
  },
  {
    name: "extension: the balance statement pages like products (D10; P: page_size 101 is 400 bad_request)",
    run: async (ctx) => {
      const s = await statement(ctx, "");
      if (!s) return;
      expectThat(s.page === 1 && s.page_size === 50, `defaults: got page ${s.page}, page_size ${s.page_size}`);
      if (ctx.opts.profile === "P") expectError(await ctx.send({ path: `${pathOf("getStatement")}?page_size=101` }), 400, "bad_request");
      else expectThat((await statement(ctx, "?page_size=101"))?.page_size === 100, "U: page_size 101 is not clamped to 100");
    },
  },
];
