import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "@/lib/testing/test-database";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeBuyer, makeProduct } from "@/lib/testing/factories";
import { SUPPLIER_ENDPOINTS } from "@/lib/testing/endpoint-samples";
import { defineSecuritySuite, type SecurityFixtures } from "@/lib/testing/security-suite";

// The shared security suite against every endpoint × prefix (section 5,
// D6-D9, D30): every entry of the endpoint table (lib/protocol/endpoints.ts).
describe("shared security suite: every endpoint under every prefix", () => {
  let server: AppServer;
  let fixtures: SecurityFixtures;
  let secrets: string[] = [];

  beforeAll(async () => {
    const url = await useTestDatabase();
    // This file sends a few hundred requests with one key; the limits are tested elsewhere.
    await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
    await makeProduct({ cardKeys: ["SECURITY-SUITE-CARD-KEY-1"] });
    const valid = await makeBuyer();
    const disabledKey = await makeBuyer();
    await db().apiCredential.update({ where: { id: disabledKey.id }, data: { isActive: false, disabledAt: new Date() } });
    const disabledUser = await makeBuyer();
    await db().user.update({ where: { id: disabledUser.user.id }, data: { status: "disabled" } });
    secrets = [valid.apiSecret, disabledKey.apiSecret, disabledUser.apiSecret];
    // Hundreds of deliberate 401s from one address: the limit on them (issue 22.2) is tested in lib/ops/http-server.test.ts.
    server = await startAppServer(url, { AUTH_FAILURES_PER_MINUTE: "0" });
    fixtures = { baseUrl: server.baseUrl, valid, disabledKey, disabledUser };
  });
  afterAll(async () => {
    await server?.stop();
  });

  defineSecuritySuite(SUPPLIER_ENDPOINTS, () => fixtures);

  it("the server's log never contains an API secret, a signature or a card key", () => {
    const out = server.output();
    expect(out).toContain("supplier api request");
    for (const s of secrets) expect(out).not.toContain(s);
    expect(out).not.toMatch(/[0-9a-fA-F]{64}/);
    expect(out).not.toContain("SECURITY-SUITE-CARD-KEY-1");
  });
});
