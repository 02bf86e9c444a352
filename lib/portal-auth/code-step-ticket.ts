import { readClaim, signClaim } from "../crypto/signed-claim";

// Issue 24.1: the portal's sign-in form works without JavaScript, so a buyer
// with two-factor on signs in in two pages: e-mail and password, then the
// code. Between them the browser holds this short-lived signed ticket naming
// the e-mail and the proof that its password was right (check-sign-in.ts);
// the password itself is never kept. A password change voids the proof; the
// code step runs under the same guessing counters as the password step.

export const CODE_STEP_COOKIE = "cardkey-portal-code-step";
export const CODE_STEP_SECONDS = 5 * 60;
const INFO = "cardkey-supplier/portal-code-step/v1";

export function issueCodeStepTicket(email: string, passwordProof: string): string {
  return signClaim(INFO, { e: email, p: passwordProof }, CODE_STEP_SECONDS);
}

/** The ticket's e-mail and proof while it is ours and unexpired; otherwise null. */
export function readCodeStepTicket(value: string | undefined): { email: string; passwordProof: string } | null {
  const claim = readClaim(INFO, value);
  return claim && typeof claim.e === "string" && typeof claim.p === "string" ? { email: claim.e, passwordProof: claim.p } : null;
}
