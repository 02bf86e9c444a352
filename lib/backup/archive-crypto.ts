// The archive's encryption and authentication (issue 22 item 4, decision 0030).
// Outside: an age file (age-encryption.org/v1: X25519 or scrypt stanzas,
// ChaCha20-Poly1305 in 64 KiB chunks), by default to an X25519 identity derived
// from SECRET_KEY, or to the operator's own `--recipient`s or passphrase for
// off-site copies. Inside: manifest.json is HMAC'd with a second key derived
// from SECRET_KEY, and pins every table's size and SHA-256; so an archive is
// authentic only if whoever made it held SECRET_KEY, whatever opened it (an
// age X25519 recipient is a public key: anyone who knows it can make a file
// it opens).
import crypto from "node:crypto";
import fs from "node:fs";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { Decrypter, Encrypter, identityToRecipient } from "age-encryption";
import { appError } from "../errors";

const refuse = (msg: string) => appError("conflict", msg);
const badInput = (msg: string) => appError("bad_request", msg);

// HKDF-SHA-256 labels, as lib/crypto/derive-key.ts derives its keys; taken from
// an explicit secret here because backup:verify must not generate one.
const SITE_IDENTITY_INFO = "cardkey-backup/age-x25519/v1";
const MANIFEST_MAC_INFO = "cardkey-backup/manifest-hmac/v1";
const derive = (secretKey: string, info: string) =>
  Buffer.from(crypto.hkdfSync("sha256", Buffer.from(secretKey, "utf8"), Buffer.alloc(0), info, 32));

/** What opens an archive besides SECRET_KEY's own identity: the contents of --identity-file and --passphrase-file. */
export interface ArchiveKeys {
  identities?: string[];
  passphrase?: string;
}

/** Where an archive is sealed to: SECRET_KEY's identity unless recipients or a passphrase are given (then only those). */
export interface SealTo {
  recipients?: string[];
  passphrase?: string;
}

/** The X25519 identity derived from SECRET_KEY (WebCrypto imports a raw X25519 private key only as PKCS #8). */
async function siteIdentity(secretKey: string): Promise<CryptoKey> {
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b656e04220420", "hex"), derive(secretKey, SITE_IDENTITY_INFO)]);
  return crypto.webcrypto.subtle.importKey("pkcs8", pkcs8, { name: "X25519" }, false, ["deriveBits"]);
}

/** HMAC-SHA-256 (hex) of manifest.json's exact bytes. */
export function manifestMac(secretKey: string, manifestBytes: Buffer): string {
  return crypto.createHmac("sha256", derive(secretKey, MANIFEST_MAC_INFO)).update(manifestBytes).digest("hex");
}

export function macMatches(secretKey: string, manifestBytes: Buffer, mac: Buffer): boolean {
  const expected = Buffer.from(manifestMac(secretKey, manifestBytes), "latin1");
  return mac.length === expected.length && crypto.timingSafeEqual(mac, expected);
}

/** --passphrase-file: its first line. --identity-file: its AGE-SECRET-KEY-1… lines (age-keygen's format, comments allowed). */
export function readKeyFiles(opts: { identityFiles?: string[]; passphraseFile?: string }): ArchiveKeys {
  const read = (flag: string, file: string) => {
    try {
      return fs.readFileSync(file, "utf8");
    } catch (err) {
      throw badInput(`${flag} ${file}: ${(err as NodeJS.ErrnoException).code ?? "cannot be read"}`);
    }
  };
  const keys: ArchiveKeys = {};
  if (opts.passphraseFile) {
    keys.passphrase = read("--passphrase-file", opts.passphraseFile).split(/\r?\n/)[0];
    if (!keys.passphrase) throw badInput(`--passphrase-file ${opts.passphraseFile}: the first line is empty`);
  }
  for (const file of opts.identityFiles ?? []) {
    const lines = read("--identity-file", file)
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    if (!lines.length || lines.some((l) => !l.startsWith("AGE-SECRET-KEY-1")))
      throw badInput(`--identity-file ${file}: expected age identities (AGE-SECRET-KEY-1…), one per line`);
    (keys.identities ??= []).push(...lines);
  }
  return keys;
}

/** Checked before any table is read: a bad recipient is bad input, not a half-written archive. */
export async function encrypterFor(secretKey: string, to: SealTo = {}): Promise<Encrypter> {
  const e = new Encrypter();
  if (to.passphrase !== undefined) {
    // age's rule: a passphrase (scrypt) file has no other recipient.
    if (to.recipients?.length)
      throw badInput("--passphrase-file and --recipient cannot be combined (an age passphrase file has no other recipients)");
    e.setPassphrase(to.passphrase);
    return e;
  }
  if (!to.recipients?.length) {
    e.addRecipient(await identityToRecipient(await siteIdentity(secretKey)));
    return e;
  }
  for (const r of to.recipients) {
    try {
      e.addRecipient(r);
    } catch {
      throw badInput(`--recipient ${JSON.stringify(r.slice(0, 16))}…: not an age recipient (age1…)`);
    }
  }
  return e;
}

/** `plain` encrypted as it streams: 64 KiB at a time, never the whole archive in memory. */
export async function sealStream(plain: Readable, encrypter: Encrypter): Promise<Readable> {
  const sealed = await encrypter.encrypt(Readable.toWeb(plain) as unknown as ReadableStream<Uint8Array>);
  return Readable.fromWeb(sealed as unknown as WebReadableStream<Uint8Array>);
}

const AGE_MAGIC = Buffer.from("age-encryption.org/v1\n");

/**
 * The archive's plaintext as a stream, each 64 KiB chunk released only after
 * its tag checked. The last chunk (and so a truncation) is checked only at
 * the end: a reader that writes must read the whole stream once first
 * (restoreBackup does). Any authentication failure is an AppError.
 */
export async function openArchiveStream(file: string, secretKey: string, keys: ArchiveKeys = {}): Promise<Readable> {
  const head = Buffer.alloc(AGE_MAGIC.length);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head[0] === 0x1f && head[1] === 0x8b) {
    throw refuse(
      "a plaintext archive (format 1, from before backups were encrypted) is not accepted: its contents cannot be authenticated; restore it with the version that wrote it, then take a new backup",
    );
  }
  if (!head.equals(AGE_MAGIC)) throw refuse("not a cardkey backup: not an age-encrypted file");
  const d = new Decrypter();
  d.addIdentity(await siteIdentity(secretKey));
  for (const id of keys.identities ?? []) {
    try {
      d.addIdentity(id);
    } catch {
      throw badInput("--identity-file holds a line that is not an age identity");
    }
  }
  if (keys.passphrase !== undefined) d.addPassphrase(keys.passphrase);
  let plain: ReadableStream<Uint8Array>;
  try {
    plain = await d.decrypt(Readable.toWeb(fs.createReadStream(file)) as unknown as ReadableStream<Uint8Array>);
  } catch (err) {
    const msg = (err as Error).message;
    if (/no identity matched/.test(msg)) {
      throw refuse(
        keys.identities || keys.passphrase !== undefined
          ? "cannot open the archive: neither this SECRET_KEY nor the identity or passphrase given is one of its recipients"
          : "cannot open the archive: it was not made with this SECRET_KEY (an off-site copy? pass --identity-file or --passphrase-file)",
      );
    }
    throw refuse(`damaged or tampered archive: its header does not authenticate (${msg})`);
  }
  return Readable.from(authenticated(plain), { objectMode: false });
}

async function* authenticated(plain: ReadableStream<Uint8Array>) {
  const reader = plain.getReader();
  let done = false;
  try {
    while (!done) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw refuse(`damaged or tampered archive: it does not authenticate (${(err as Error).message})`);
      }
      done = chunk.done;
      if (chunk.value) yield chunk.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
  }
}
