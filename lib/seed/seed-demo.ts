import crypto from "node:crypto";
import { SYSTEM_ACTOR } from "../audit/actor";
import { hashPassword } from "../crypto/password";
import { db } from "../db/client";
import { importCatalog, type ImportCounts } from "../catalog/import-catalog";
import { validateCatalogFile } from "../catalog/validate-catalog-file";
import { createApiKey } from "../credentials/create-api-key";
import { createUser } from "../users/create-user";
import demoCatalog from "./demo-catalog.json";

export const DEMO_BUYER_EMAIL = "demo-buyer@example.com";
export const DEMO_BUYER_POINTS_CENTS = 100_000n; // 1000.00

/** Nothing an operator made yet: no category, product, buyer or administrator. */
export async function isDatabaseEmpty(): Promise<boolean> {
  const [categories, products, users, admins] = await Promise.all([
    db().category.count(),
    db().product.count(),
    db().user.count(),
    db().adminUser.count(),
  ]);
  return categories + products + users + admins === 0;
}

/**
 * The first-start demo data of the embedded database (issue 2): a small
 * catalogue (through the same import as `catalog:import`, so the demo file is
 * also a worked example of the format), a buyer with points and one API key.
 * The secret is returned for printing once; it is stored only encrypted.
 */
export async function seedDemo(): Promise<{
  catalog: ImportCounts;
  buyerEmail: string;
  apiKey: string;
  apiSecret: string;
  portalPassword: string;
}> {
  const catalog = await importCatalog(validateCatalogFile(demoCatalog), { actor: SYSTEM_ACTOR });
  const buyer = await createUser({ email: DEMO_BUYER_EMAIL, initialPointsCents: DEMO_BUYER_POINTS_CENTS, actor: SYSTEM_ACTOR });
  const { apiKey, apiSecret } = await createApiKey({ userId: buyer.id, name: "demo", actor: SYSTEM_ACTOR });
  // Issue 24: the demo buyer can sign in to the portal at once (printed once, stored hashed).
  const portalPassword = crypto.randomBytes(12).toString("base64url");
  await db().user.update({ where: { id: buyer.id }, data: { passwordHash: await hashPassword(portalPassword) } });
  return { catalog, buyerEmail: buyer.email, apiKey, apiSecret, portalPassword };
}
