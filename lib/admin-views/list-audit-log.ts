import { db } from "../db/client";
import type { Paging } from "./paging";

/** One page of the audit log, newest first, optionally filtered by action prefix or actor. */
export async function listAuditLog({ paging, q }: { paging: Paging<"createdAt">; q?: string }) {
  const search = q?.trim();
  const where = search
    ? { OR: [{ action: { startsWith: search } }, { actor: { contains: search.toLowerCase() } }, { targetId: search }] }
    : {};
  const [total, rows] = await Promise.all([
    db().auditLog.count({ where }),
    db().auditLog.findMany({ where, orderBy: [{ createdAt: paging.dir }, { id: paging.dir }], skip: paging.skip, take: paging.take }),
  ]);
  return { total, rows };
}
