import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing/test-database";
import { cardKeysFor, makeProduct } from "../testing/factories";
import { db } from "../db/client";
import { decryptText } from "../crypto/secret-box";

// Issue 2: card keys are unreadable in the database without the key.

/** Every column of every table in the public schema, as text (bytea shows as \x… hex). */
async function wholeDatabaseAsText(): Promise<string> {
  const tables = await db().$queryRaw<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`;
  let out = "";
  for (const { name } of tables) {
    const rows = await db().$queryRawUnsafe<{ t: string }[]>(`SELECT t::text AS t FROM "${name}" t`);
    out += rows.map((r) => r.t).join("\n");
  }
  return out;
}

/** The AES key another installation (another SECRET_KEY) would derive, by the same recipe as lib/crypto/keys.ts. */
function keyFor(secret: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), "cardkey-supplier/aes-256-gcm/v1", 32));
}

function decryptWith(key: Buffer, sealed: Uint8Array): string {
  const buf = Buffer.from(sealed);
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, buf.subarray(0, 12));
  decipher.setAuthTag(buf.subarray(12, 28));
  return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString("utf8");
}

describe("card keys are encrypted at rest", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });

  it("stores no plaintext in any column, and only the right SECRET_KEY opens them", async () => {
    const keys = cardKeysFor("PLAINTEXT-CANARY", 5);
    const { sku } = await makeProduct({ cardKeys: keys });

    const dump = await wholeDatabaseAsText();
    for (const key of keys) {
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(Buffer.from(key).toString("hex")); // not as raw bytes either
      // The fingerprint is keyed (HMAC), not a plain hash anyone could compute.
      expect(dump).not.toContain(crypto.createHash("sha256").update(key).digest("hex"));
    }
    expect(dump).not.toContain("PLAINTEXT-CANARY");

    const rows = await db().cardKey.findMany({ where: { skuId: sku.id }, orderBy: { id: "asc" } });
    expect(rows).toHaveLength(5);
    // With this installation's key they open…
    expect(rows.map((r) => decryptText(r.ciphertext)).sort()).toEqual([...keys].sort());
    expect(decryptWith(keyFor(process.env.SECRET_KEY!), rows[0].ciphertext)).toBe(rows.map((r) => decryptText(r.ciphertext))[0]);
    // …with a key derived from any other SECRET_KEY, GCM authentication fails.
    const other = keyFor("some-other-installation-secret-key-000");
    for (const row of rows) expect(() => decryptWith(other, row.ciphertext)).toThrow(/unable to authenticate|auth/i);
  });
});
