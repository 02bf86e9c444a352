// The audit trail, for operators who ship it elsewhere (issue 22.10).
import { z } from "zod";
import { MAX_AUDIT_LIST } from "../../lib/audit/list-audit-rows";
import { command } from "./command";

export const commands = {
  "audit:list": command({
    usage: `audit:list [--since 2026-11-25T00:00:00Z] [--limit 100]   (newest first; at most ${MAX_AUDIT_LIST})`,
    options: { since: { type: "string" }, limit: { type: "string" } },
    input: (v) => v,
    schema: z.object({
      since: z.iso
        .datetime({ offset: true, error: "must be an ISO 8601 date-time such as 2026-11-25T00:00:00Z" })
        .transform((s) => new Date(s))
        .optional(),
      limit: z
        .string()
        .regex(/^[1-9][0-9]{0,4}$/, `must be a whole number from 1 to ${MAX_AUDIT_LIST}`)
        .transform(Number)
        .refine((n) => n <= MAX_AUDIT_LIST, `must be a whole number from 1 to ${MAX_AUDIT_LIST}`)
        .default(100),
    }),
    run: async (a) => {
      const { listAuditRows } = await import("../../lib/audit/list-audit-rows");
      return { rows: await listAuditRows(a) };
    },
  }),
};
