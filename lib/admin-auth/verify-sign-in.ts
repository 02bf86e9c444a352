import { alertAdminLocked, alertAdminNewDevice } from "../alerts/admin-alerts";
import { db } from "../db/client";
import { checkSignIn, type CheckAttempt, type SignInAccount, type SignInDoor } from "./check-sign-in";
import { signInName } from "./totp-account";

export type SignInAttempt = Omit<CheckAttempt, "passwordProof"> & { password: string };

export type SignInResult =
  | { ok: true; admin: { id: number; email: string; sessionVersion: number } }
  | { ok: false; reason: "invalid" | "totp_required" | "locked" };

type AdminAccount = SignInAccount & { id: number; sessionVersion: number };

/** The console's door to the shared sign-in rule (check-sign-in.ts): accounts are AdminUser rows, counted under their e-mail. */
const ADMIN_DOOR: SignInDoor<AdminAccount> = {
  kind: "admin",
  throttleName: (email) => signInName("admin", email),
  async find(email) {
    const admin = await db().adminUser.findUnique({ where: { email } });
    return admin && { ...admin, ref: { kind: "admin", id: admin.id }, active: admin.isActive };
  },
  onLocked: (email, ip) => alertAdminLocked({ email, ip }), // issue 25
  tellsLocked: true, // issue 35.4
  async onSignedIn(admin, ip, trustedDevice) {
    await db().adminUser.update({ where: { id: admin.id }, data: { lastLoginAt: new Date() } });
    if (!trustedDevice) await alertAdminNewDevice({ adminId: admin.id, email: admin.email, ip }); // issue 25
  },
};

/**
 * Checks an administrator's sign-in (e-mail, password, and the code when
 * two-factor is on). A refused attempt answers exactly like a wrong password
 * ("invalid"), except that a locked-out administrator who types the right
 * password is told "locked" and how to be unlocked (issue 35.4): only the
 * right password earns that answer, so it names no admin to a guesser.
 */
export async function verifySignIn(attempt: SignInAttempt): Promise<SignInResult> {
  const result = await checkSignIn(ADMIN_DOOR, { ...attempt, passwordProof: undefined });
  if (!result.ok) return { ok: false, reason: result.reason === "invalid" && result.locked ? "locked" : result.reason };
  const { id, email, sessionVersion } = result.account;
  return { ok: true, admin: { id, email, sessionVersion } };
}
