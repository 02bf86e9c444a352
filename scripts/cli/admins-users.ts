// Administrators, buyers, points and API keys.
import { z } from "zod";
import { AdminInputSchema } from "../../lib/admins/create-admin";
import { Amount, command, Email } from "./command";
export const commands = {
  "admin:create": command({
    usage: "admin:create --email E --password P",
    options: { email: { type: "string" }, password: { type: "string" } },
    input: (v) => v,
    schema: AdminInputSchema,
    run: async (a) => {
      const { createAdmin } = await import("../../lib/admins/create-admin");
      return createAdmin(a, { actor: "cli" });
    },
  }),
  "user:create": command({
    usage: "user:create --email E [--points 12.34]",
    options: { email: { type: "string" }, points: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: Email, points: Amount(false).default("0") }),
    run: async (a) => {
      const { createUser } = await import("../../lib/users/create-user");
      const { formatAmount, parseAmount } = await import("../../lib/protocol/amount");
      const user = await createUser({ email: a.email, initialPointsCents: parseAmount(a.points) });
      return { id: user.id, email: user.email, points: formatAmount(user.balanceCents) };
    },
  }),
  "points:adjust": command({
    usage: "points:adjust --email E --amount -5.00 --reason R",
    options: { email: { type: "string" }, amount: { type: "string" }, reason: { type: "string" } },
    input: (v) => v,
    schema: z.object({
      email: Email,
      amount: Amount(true).refine((s) => !/^-?0*(\.0*)?$/.test(s), "must not be zero"),
      reason: z.string().trim().min(1, "is required").max(200),
    }),
    run: async (a) => {
      const { adjustPoints } = await import("../../lib/points/adjust-points");
      const { formatAmount, parseAmount } = await import("../../lib/protocol/amount");
      const balance = await adjustPoints({ email: a.email, deltaCents: parseAmount(a.amount), reason: `cli: ${a.reason}` });
      return { balance: formatAmount(balance) };
    },
  }),
  "points:reconcile": command({
    usage: "points:reconcile",
    options: {},
    input: () => ({}),
    schema: z.object({}),
    run: async () => {
      const { reconcilePoints } = await import("../../lib/points/reconcile-points");
      const { formatAmount } = await import("../../lib/protocol/amount");
      const r = await reconcilePoints();
      return {
        ok: r.ok,
        users_checked: r.usersChecked,
        mismatches: r.mismatches.map((m) => ({
          user_id: m.userId,
          email: m.email,
          balance: formatAmount(m.balanceCents),
          ledger_sum: formatAmount(m.ledgerSumCents),
          last_balance_after: m.lastBalanceAfterCents === null ? null : formatAmount(m.lastBalanceAfterCents),
        })),
      };
    },
  }),
  "apikey:create": command({
    usage: "apikey:create --email E [--name N]",
    options: { email: { type: "string" }, name: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: Email, name: z.string().trim().max(100).default("") }),
    run: async (a) => {
      const { getUserByEmail } = await import("../../lib/users/get-user-by-email");
      const { createApiKey } = await import("../../lib/credentials/create-api-key");
      const user = await getUserByEmail(a.email);
      const { apiKey, apiSecret } = await createApiKey(user.id, a.name);
      return { api_key: apiKey, api_secret: apiSecret };
    },
  }),
  "apikey:disable": command({
    usage: "apikey:disable --key K",
    options: { key: { type: "string" } },
    input: (v) => v,
    schema: z.object({ key: z.string().trim().min(1).max(200) }),
    run: async (a) => {
      const { disableApiKey } = await import("../../lib/credentials/disable-api-key");
      await disableApiKey(a.key);
      return { ok: true };
    },
  }),
};
