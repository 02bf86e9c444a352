import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing/test-database";
import { db } from "../db/client";
import { decryptText } from "../crypto/secret-box";
import { verifyPassword } from "../crypto/password";
import { CLI_ACTOR, SYSTEM_ACTOR } from "../audit/actor";
import { getSettings } from "../settings/get-settings";
import { updateSettings } from "../settings/update-settings";
import { inviteBuyer } from "../users/invite-buyer";
import { printBox, seedOnStart } from "./seed-on-start";

// Issue 2 item 5: an empty embedded database gets demo data and an admin,
// shown once; with DATABASE_URL only the first admin is made.

describe("seeding on start", () => {
  afterEach(() => {
    delete process.env.ADMIN_EMAIL;
    delete process.env.ADMIN_PASSWORD;
  });

  describe("embedded, empty database", () => {
    beforeAll(async () => {
      await useTestDatabase();
    });

    it("seeds the demo catalogue, buyer, key and admin once, and shows the secrets once", async () => {
      const lines = await seedOnStart({ embedded: true });
      const text = lines.join("\n");
      const apiKey = /Demo API key:\s+(\S+)/.exec(text)![1];
      const apiSecret = /Demo API secret:\s+(\S+)/.exec(text)![1];
      const password = /Admin password:\s+(\S+)/.exec(text)![1];

      const credential = await db().apiCredential.findUniqueOrThrow({ where: { apiKey }, include: { user: true } });
      expect(decryptText(credential.secretCiphertext)).toBe(apiSecret);
      expect(credential.user).toMatchObject({ email: "demo-buyer@example.com", balanceCents: 100_000n });
      const admin = await db().adminUser.findUniqueOrThrow({ where: { email: "admin@example.com" } });
      expect(await verifyPassword(password, admin.passwordHash)).toBe(true);
      // Issue 22.8: a printed password is replaced at the first sign-in.
      expect(admin.passwordChangeRequired).toBe(true);
      expect(text).toMatch(/Admin password:\s+\S+\s+\(change it at the first sign-in\)/);

      const products = await db().product.findMany({ include: { skus: { include: { _count: { select: { cardKeys: true } } } } } });
      expect(new Set(products.map((p) => p.deliveryFormat))).toEqual(
        new Set(["text", "account_password", "card_password", "apple_account"]),
      );
      expect(products.some((p) => p.fulfillmentType === "manual" && (p.manualFormSchema as { fields: unknown[] }).fields.length > 0)).toBe(
        true,
      );
      expect(products.some((p) => !p.isActive)).toBe(true);
      expect(products.filter((p) => p.fulfillmentType === "auto").every((p) => p.skus.every((s) => s._count.cardKeys > 0))).toBe(true);

      let out = "";
      printBox(lines, { write: (s: string) => (out += s) } as unknown as NodeJS.WritableStream);
      expect(out).toContain(apiSecret);
      expect(out).toMatch(/^\n╔═+╗\n║ /);

      // Second start: nothing new, nothing printed.
      expect(await seedOnStart({ embedded: true, baseUrl: "http://localhost:3999" })).toEqual([]);
      expect(await db().user.count()).toBe(1);
    });
  });

  describe("issue 24.1: the first start's links", () => {
    beforeAll(async () => {
      await useTestDatabase();
    });

    it("issue 24.1/25.3: the first start on another port sets public_base_url to the address it announces, so invitation links open; later starts leave it", async () => {
      await seedOnStart({ embedded: true, baseUrl: "http://localhost:3800/" });
      expect((await getSettings()).publicBaseUrl).toBe("http://localhost:3800");
      const invite = await inviteBuyer({ email: "demo-buyer@example.com", actor: CLI_ACTOR });
      expect(invite.inviteUrl).toMatch(/^http:\/\/localhost:3800\/portal\/link\//);
      await updateSettings({ public_base_url: "https://shop.example.com" }, { actor: SYSTEM_ACTOR }); // the operator's own
      expect(await seedOnStart({ embedded: true, baseUrl: "http://localhost:3801" })).toEqual([]);
      expect((await getSettings()).publicBaseUrl).toBe("https://shop.example.com");
    });
  });

  describe("DATABASE_URL", () => {
    beforeAll(async () => {
      await useTestDatabase();
    });

    it("seeds only the first admin, from ADMIN_EMAIL/ADMIN_PASSWORD, and never prints that password", async () => {
      process.env.ADMIN_EMAIL = "Ops@Example.com";
      process.env.ADMIN_PASSWORD = "a-long-operator-password";
      const lines = await seedOnStart({ embedded: false });
      expect(lines.join("\n")).toContain("ops@example.com");
      expect(lines.join("\n")).not.toContain("a-long-operator-password");
      expect(await db().product.count()).toBe(0);
      expect(await db().user.count()).toBe(0);
      const admin = await db().adminUser.findUniqueOrThrow({ where: { email: "ops@example.com" } });
      expect(await verifyPassword("a-long-operator-password", admin.passwordHash)).toBe(true);
      expect(admin.passwordChangeRequired).toBe(false); // issue 22.8: the operator chose it
      // Concurrent starts make one admin; later starts none.
      const again = await Promise.all([seedOnStart({ embedded: false }), seedOnStart({ embedded: false })]);
      expect(again).toEqual([[], []]);
      expect(await db().adminUser.count()).toBe(1);
    });
  });
});
