import { auditAdmin } from "../admin-auth/audit-admin";
import { db } from "../db/client";
import { appError } from "../errors";

/** Member levels for the buyer page's picker, in their sort order. */
export async function listMemberLevels() {
  return db().memberLevel.findMany({ orderBy: [{ sortOrder: "asc" }, { id: "asc" }], select: { id: true, slug: true, name: true } });
}

/** Moves a buyer to another member level (admin UI), audited with the previous one. */
export async function setMemberLevel(input: { userId: string; levelSlug: string; admin: { id: number; email: string; ip: string | null } }) {
  return db().$transaction(async (tx) => {
    const level = await tx.memberLevel.findUnique({ where: { slug: input.levelSlug }, select: { id: true, slug: true } });
    if (!level) throw appError("not_found", "no such member level");
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { id: true, memberLevel: { select: { slug: true } } } });
    if (!user) throw appError("not_found", "no such buyer");
    await tx.user.update({ where: { id: user.id }, data: { memberLevelId: level.id } });
    await auditAdmin({
      adminUserId: input.admin.id, actor: input.admin.email, action: "user.member_level", targetType: "user",
      targetId: user.id, details: { from: user.memberLevel.slug, to: level.slug }, ip: input.admin.ip,
    }, tx);
    return { userId: user.id, level: level.slug };
  });
}
