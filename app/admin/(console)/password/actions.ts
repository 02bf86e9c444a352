"use server";

import { redirect } from "next/navigation";
import { type ActionState, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { changeOwnPassword } from "@/lib/admins/change-own-password";
import { NewPasswordSchema } from "@/lib/admins/set-admin-password";

const ChangePasswordSchema = z
  .object({ current: z.string().min(1).max(1024), next: NewPasswordSchema, confirm: z.string().max(1024) })
  .refine((v) => v.next === v.confirm, { path: ["confirm"], message: "the two new passwords differ" });

export async function changePasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(
    ChangePasswordSchema,
    form,
    async (input, { admin }) => {
      await changeOwnPassword(admin, input.current, input.next);
      // Every session of this admin has ended, this one too: sign in again.
      redirect("/admin/sign-in?passwordChanged=1");
    },
    { passwordChange: "pending-allowed" },
  ); // issue 22.8: the one action open before a generated password is replaced
}
