import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { throttleGroup } from "../net/client-address";
import { clearAttempts, clearAttemptsWithPrefix, releaseAttempt, reserveAttempt, type Reservation } from "./attempt-counter";

// The sign-in guessing policy (docs/decisions/0011-admin-sign-in.md). Three
// counters, each reserved atomically BEFORE any scrypt work, checked in order:
//  1. per client address (an IPv6 /64 counts as one, lib/net/client-address.ts): bounds the password hashing one address can cause,
//     whatever accounts it names (known or not);
//  2. per (account, address): the lock-out. Five failures lock that account for
//     that address only, so an attacker elsewhere locks only himself out;
//  3. per account, for clients WITHOUT a device cookie for it: a slow-down on
//     distributed guessing. The owner's browser (device cookie) skips it.
// Keys use the e-mail as typed (normalised), not whether such an admin exists,
// so refusals look the same for unknown e-mails and for admins.

export const WINDOW_SECONDS = 15 * 60;
export const PER_ADDRESS_LIMIT = 20;
export const PER_ACCOUNT_ADDRESS_LIMIT = 5;
export const PER_ACCOUNT_UNTRUSTED_LIMIT = 10;

/** Issue 35.4: password checks a locked account's owner gets per address and window, to learn that it is locked. */
export const LOCKED_CHECK_LIMIT = 3;
const lockedCheckPrefix = (email: string) => `locked:${enc(email)}:`;

export type RefusedBy = "address" | "account_address" | "account";

const enc = (s: string) => encodeURIComponent(s);
// "Address" below is the client's throttle group (issue 22.3): an IPv4 address, or an IPv6 /64.
export const addressKey = (ip: string) => `ip:${enc(throttleGroup(ip))}`;
export const accountAddressPrefix = (email: string) => `acct-ip:${enc(email)}:`;
export const accountAddressKey = (email: string, ip: string) => `${accountAddressPrefix(email)}${enc(throttleGroup(ip))}`;
export const accountKey = (email: string) => `acct:${enc(email)}`;

export type Gate =
  | { ok: true; keys: { address: string; accountAddress: string; account: string | null } }
  | { ok: false; refusedBy: RefusedBy; first: boolean };

/** Reserves one attempt on every counter that applies; the first full one refuses. */
export async function reserveSignIn(email: string, ip: string, trustedDevice: boolean): Promise<Gate> {
  const checks: [RefusedBy, string, number][] = [
    ["address", addressKey(ip), PER_ADDRESS_LIMIT],
    ["account_address", accountAddressKey(email, ip), PER_ACCOUNT_ADDRESS_LIMIT],
  ];
  if (!trustedDevice) checks.push(["account", accountKey(email), PER_ACCOUNT_UNTRUSTED_LIMIT]);
  for (const [refusedBy, key, limit] of checks) {
    const r: Reservation = await reserveAttempt(key, limit, WINDOW_SECONDS);
    // `first` marks the attempt that crossed the limit: audited once, not on every refusal.
    if (!r.allowed) return { ok: false, refusedBy, first: r.count === limit + 1 };
  }
  return {
    ok: true,
    keys: { address: addressKey(ip), accountAddress: accountAddressKey(email, ip), account: trustedDevice ? null : accountKey(email) },
  };
}

/**
 * Issue 35.4: whether a refused attempt may still have its password checked,
 * so that the owner with the right password is told the account is locked
 * (and how it is unlocked). A few per address and window: each answer says
 * whether the password was right, so unbounded it would be a guessing channel
 * around the lock-out; bounded it adds 3 guesses to the 5 a window allows.
 */
export async function reserveLockedCheck(email: string, ip: string): Promise<boolean> {
  return (await reserveAttempt(`${lockedCheckPrefix(email)}${enc(throttleGroup(ip))}`, LOCKED_CHECK_LIMIT, WINDOW_SECONDS)).allowed;
}

/** The password was right (TOTP may still be pending): not a guess, give the reservations back. */
export async function releaseSignIn(keys: Extract<Gate, { ok: true }>["keys"]): Promise<void> {
  await releaseAttempt(keys.address);
  await releaseAttempt(keys.accountAddress);
  if (keys.account) await releaseAttempt(keys.account);
}

/**
 * A full sign-in succeeded: this address's lock-out starts afresh. The
 * account-wide slow-down is NOT cleared (only this attempt is given back):
 * otherwise every sign-in of the owner would hand a distributed attacker a
 * fresh allowance of guesses. It ends with its window.
 */
export async function resetAfterSignIn(email: string, ip: string, trustedDevice: boolean): Promise<void> {
  await releaseAttempt(addressKey(ip));
  await clearAttempts(accountAddressKey(email, ip));
  if (!trustedDevice) await releaseAttempt(accountKey(email));
}

/**
 * admin:unlock: forgets the account's lock-outs at every address, the
 * per-address throttle of those addresses (the operator vouches for them)
 * and the account-wide slow-down.
 */
export async function unlockAccount(email: string, tx: Tx = db()): Promise<number> {
  const prefix = accountAddressPrefix(email);
  const keys = await clearAttemptsWithPrefix(prefix, tx);
  let cleared = keys.length + (await clearAttempts(accountKey(email), tx));
  for (const key of keys) cleared += await clearAttempts(`ip:${key.slice(prefix.length)}`, tx);
  return cleared + (await clearAttemptsWithPrefix(lockedCheckPrefix(email), tx)).length;
}
