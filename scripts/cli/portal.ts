// The buyer portal (issue 24): invitations, disabling buyers, top-up requests.
import { z } from "zod";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { EmailSchema } from "../../lib/users/email";
import { TopUpIdSchema as TopUpId } from "../../lib/top-ups/approve-top-up";
import { RejectReasonSchema } from "../../lib/top-ups/reject-top-up";
import { TopUpStateSchema } from "../../lib/top-ups/list-top-ups";
import { command } from "./command";

const topUpView = (
  r: {
    id: number;
    userId: string;
    amountCents: bigint;
    transferReference: string;
    state: string;
    rejectReason: string | null;
    createdAt: Date;
    decidedAt: Date | null;
  },
  fmt: (c: bigint) => string,
) => ({
  id: r.id,
  user_id: r.userId,
  amount: fmt(r.amountCents),
  transfer_reference: r.transferReference,
  state: r.state,
  reject_reason: r.rejectReason,
  created_at: r.createdAt.toISOString(),
  decided_at: r.decidedAt?.toISOString() ?? null,
});

export const commands = {
  "user:invite": command({
    usage: "user:invite --email E",
    options: { email: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: EmailSchema }),
    run: async (a) => {
      const { inviteBuyer } = await import("../../lib/users/invite-buyer");
      const r = await inviteBuyer({ email: a.email, actor });
      return { id: r.id, email: r.email, invite_url: r.inviteUrl };
    },
  }),
  "user:two-factor-off": command({
    usage: "user:two-factor-off --email E",
    options: { email: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: EmailSchema }),
    run: async (a) => {
      const { resetBuyerTwoFactor } = await import("../../lib/users/reset-buyer-two-factor");
      return resetBuyerTwoFactor({ email: a.email, actor });
    },
  }),
  "user:disable": command({
    usage: "user:disable --email E",
    options: { email: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: EmailSchema }),
    run: async (a) => {
      const { disableUser } = await import("../../lib/users/disable-user");
      const r = await disableUser({ email: a.email, actor });
      return { id: r.id, email: r.email, disabled: true, sessions_ended: r.sessionsEnded };
    },
  }),
  "topup:list": command({
    usage: "topup:list [--state pending|approved|rejected]",
    options: { state: { type: "string" } },
    input: (v) => v,
    schema: z.object({ state: TopUpStateSchema.optional() }),
    run: async (a) => {
      const { listTopUps } = await import("../../lib/top-ups/list-top-ups");
      const { formatAmount } = await import("../../lib/protocol/amount");
      const rows = await listTopUps({ state: a.state, take: 1000 });
      return { top_ups: rows.map((r) => ({ ...topUpView(r, formatAmount), email: r.user.email })) };
    },
  }),
  "topup:approve": command({
    usage: "topup:approve --id N",
    options: { id: { type: "string" } },
    input: (v) => v,
    schema: z.object({ id: TopUpId }),
    run: async (a) => {
      const { approveTopUp } = await import("../../lib/top-ups/approve-top-up");
      const { formatAmount } = await import("../../lib/protocol/amount");
      const r = await approveTopUp({ id: a.id, actor });
      return { ...topUpView(r, formatAmount), balance: formatAmount(r.balanceCents) };
    },
  }),
  "topup:reject": command({
    usage: "topup:reject --id N --reason R",
    options: { id: { type: "string" }, reason: { type: "string" } },
    input: (v) => v,
    schema: z.object({ id: TopUpId, reason: RejectReasonSchema }),
    run: async (a) => {
      const { rejectTopUp } = await import("../../lib/top-ups/reject-top-up");
      const { formatAmount } = await import("../../lib/protocol/amount");
      return topUpView(await rejectTopUp({ id: a.id, reason: a.reason, actor }), formatAmount);
    },
  }),
};
