// Administrator accounts: password reset, disable, unlock (issue 8.4).
import { z } from "zod";
import { NewPasswordSchema } from "../../lib/admins/set-admin-password";
import { EmailSchema } from "../../lib/users/email";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { command } from "./command";
import { secretFromStdin, withSecret } from "./read-secret";

const EmailOnly = z.object({ email: EmailSchema });

export const commands = {
  "admin:password": command({
    usage: "admin:password --email E (--password-stdin | --password P)   (ends every session of that admin)",
    options: { email: { type: "string" }, password: { type: "string" }, ...secretFromStdin("password") },
    input: (v) => withSecret(v, "password"),
    schema: z.object({ email: EmailSchema, password: NewPasswordSchema }),
    run: async (a) => {
      const { getAdminByEmail } = await import("../../lib/admins/get-admin-by-email");
      const { setAdminPassword } = await import("../../lib/admins/set-admin-password");
      const admin = await getAdminByEmail(a.email);
      await setAdminPassword(admin.id, a.password, { actor });
      return { id: admin.id, email: admin.email, sessions_ended: true };
    },
  }),
  "admin:disable": command({
    usage: "admin:disable --email E   (refuses sign-in and ends every session)",
    options: { email: { type: "string" } },
    input: (v) => v,
    schema: EmailOnly,
    run: async (a) => {
      const { disableAdmin } = await import("../../lib/admins/disable-admin");
      const admin = await disableAdmin(a.email, { actor });
      return { id: admin.id, email: admin.email, disabled: true };
    },
  }),
  "admin:unlock": command({
    usage: "admin:unlock --email E   (lifts sign-in lock-outs of that admin)",
    options: { email: { type: "string" } },
    input: (v) => v,
    schema: EmailOnly,
    run: async (a) => {
      const { unlockAdmin } = await import("../../lib/admins/unlock-admin");
      const r = await unlockAdmin(a.email, { actor });
      return { id: r.id, email: r.email, counters_cleared: r.cleared };
    },
  }),
};
