// Administrators, buyers, points and API keys.
import { z } from "zod";
import { AdminInputSchema } from "../../lib/admins/create-admin";
import { NonNegativeAmountInputSchema } from "../../lib/protocol/amount";
import { AdjustReasonSchema, PointsDeltaSchema } from "../../lib/users/adjust-points-input";
import { EmailSchema } from "../../lib/users/email";
import { ApiKeyTextSchema } from "../../lib/credentials/disable-api-key";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { command } from "./command";
import { secretFromStdin, withSecret } from "./read-secret";
export const commands = {
  "admin:create": command({
    usage: "admin:create --email E (--password-stdin | --password P)",
    options: { email: { type: "string" }, password: { type: "string" }, ...secretFromStdin("password") },
    input: (v) => withSecret(v, "password"),
    schema: AdminInputSchema,
    run: async (a) => {
      const { createAdmin } = await import("../../lib/admins/create-admin");
      return createAdmin(a, { actor });
    },
  }),
  "user:create": command({
    usage: "user:create --email E [--points 12.34]",
    options: { email: { type: "string" }, points: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: EmailSchema, points: NonNegativeAmountInputSchema.default(0n) }),
    run: async (a) => {
      const { createUser } = await import("../../lib/users/create-user");
      const { formatAmount } = await import("../../lib/protocol/amount");
      const user = await createUser({ email: a.email, initialPointsCents: a.points, actor });
      return { id: user.id, email: user.email, points: formatAmount(user.balanceCents) };
    },
  }),
  "points:adjust": command({
    usage: "points:adjust --email E --amount -5.00 --reason R",
    options: { email: { type: "string" }, amount: { type: "string" }, reason: { type: "string" } },
    input: (v) => v,
    schema: z.object({
      email: EmailSchema,
      amount: PointsDeltaSchema,
      reason: AdjustReasonSchema,
    }),
    run: async (a) => {
      const { adjustPoints } = await import("../../lib/users/adjust-points");
      const { formatAmount } = await import("../../lib/protocol/amount");
      const balance = await adjustPoints({ email: a.email, deltaCents: a.amount, reason: `cli: ${a.reason}`, actor });
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
        // Issue 36: every paid payment credited exactly once, of its amount.
        payments_checked: r.paymentsChecked,
        payment_mismatches: r.paymentMismatches.map((m) => ({
          payment_no: m.paymentNo,
          state: m.state,
          amount: formatAmount(m.amountCents),
          credits: m.credits,
          credited: formatAmount(m.creditedCents),
        })),
      };
    },
  }),
  "apikey:create": command({
    usage: "apikey:create --email E [--name N]",
    options: { email: { type: "string" }, name: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: EmailSchema, name: z.string().trim().max(100).default("") }),
    run: async (a) => {
      const { getUserByEmail } = await import("../../lib/users/get-user-by-email");
      const { createApiKey } = await import("../../lib/credentials/create-api-key");
      const user = await getUserByEmail(a.email);
      const { apiKey, apiSecret } = await createApiKey({ userId: user.id, name: a.name, actor });
      return { api_key: apiKey, api_secret: apiSecret };
    },
  }),
  "apikey:disable": command({
    usage: "apikey:disable --key K",
    options: { key: { type: "string" } },
    input: (v) => v,
    schema: z.object({ key: ApiKeyTextSchema }),
    run: async (a) => {
      const { disableApiKey } = await import("../../lib/credentials/disable-api-key");
      await disableApiKey({ apiKey: a.key, actor });
      return { ok: true };
    },
  }),
  "apikey:acg": command({
    usage: "apikey:acg --key K --on|--off",
    options: { key: { type: "string" }, on: { type: "boolean" }, off: { type: "boolean" } },
    input: (v) => v,
    schema: z
      .object({ key: ApiKeyTextSchema, on: z.boolean().optional(), off: z.boolean().optional() })
      .refine((a) => Boolean(a.on) !== Boolean(a.off), { message: "give exactly one of --on and --off" }),
    run: async (a) => {
      const { setAcgSwitch } = await import("../../lib/credentials/set-acg-switch");
      const r = await setAcgSwitch({ apiKey: a.key, on: Boolean(a.on), actor });
      // What the shop types into ACG-Faka's shared-store screen; its app_key is this key's API secret.
      return { ok: true, acg_enabled: r.acgEnabled, app_id: r.appId, url: r.url };
    },
  }),
};
