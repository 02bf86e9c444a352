import crypto from "node:crypto";
import { promisify } from "node:util";
import pLimit from "p-limit";

// Administrator passwords are hashed with scrypt, a memory-hard KDF, so a
// stolen table cannot be brute-forced cheaply. Parameters travel in the hash
// ("scrypt$N$r$p$salt$hash"), so they can be raised later without breaking
// existing hashes.

const scryptOnPool = promisify(crypto.scrypt) as (
  pw: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  len: number,
  opts: crypto.ScryptOptions,
) => Promise<Buffer>;

// Issue 22.3: scrypt runs on libuv's thread pool (4 threads), shared with the
// gzip of catalogue pages and file reads. At most 2 run at once per process,
// the rest queue, so a flood of sign-ins (from many addresses, past the
// per-address throttle) leaves 2 threads free and holds at most 256 MiB.
export const MAX_CONCURRENT_SCRYPT = 2;
const scryptSlots = pLimit(MAX_CONCURRENT_SCRYPT);
const scrypt: typeof scryptOnPool = (...args) => scryptSlots(() => scryptOnPool(...args));

// N = 2^17, r = 8, p = 1: OWASP's recommendation for scrypt (128 MiB, ~0.3 s here).
const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const maxmem = (n: number, r: number) => 128 * n * r + 16 * 1024 * 1024;

export const MIN_PASSWORD_LENGTH = 10;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password.normalize("NFKC"), salt, KEY_BYTES, { N, r: R, p: P, maxmem: maxmem(N, R) });
  return ["scrypt", N, R, P, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

/** Constant-time check; a malformed stored hash simply does not match. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, hashText] = stored.split("$");
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== "scrypt" || !saltText || !hashText || ![cost.N, cost.r, cost.p].every(Number.isSafeInteger)) return false;
  const expected = Buffer.from(hashText, "base64url");
  const actual = await scrypt(password.normalize("NFKC"), Buffer.from(saltText, "base64url"), expected.length, {
    ...cost,
    maxmem: maxmem(cost.N, cost.r),
  });
  return expected.length > 0 && crypto.timingSafeEqual(actual, expected);
}
