import { spawn, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { startBrokenSupplier, type Faults } from "@/lib/testing/broken-supplier";
import { cardKeysFor, makeBuyer, makeProduct } from "@/lib/testing/factories";
import { useTestDatabase } from "@/lib/testing/test-database";
import { runConformance, type ConformanceReport } from "./run";

// Issue 11.3: the conformance kit passes against our server in both profiles
// (orders allowed) and reports each fault of deliberately broken servers.

let server: AppServer;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let skuId: number;

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer({ pointsCents: 100_000n });
  await makeProduct({ isActive: false, cardKeys: cardKeysFor("INACT", 1) });
  skuId = (await makeProduct({ priceCents: 1230n, cardKeys: cardKeysFor("CONF", 10) })).sku.id;
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

const failedNames = (r: ConformanceReport) => r.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
const creds = () => ({ apiKey: buyer.apiKey, apiSecret: buyer.apiSecret });

describe("issue 11.3: conformance against our own server", () => {
  for (const profile of ["U", "P"] as const) {
    it(`Profile ${profile}: every check passes, orders allowed (D1-D33)`, async () => {
      const report = await runConformance({ baseUrl: server.baseUrl, ...creds(), profile, allowOrders: true, skuId });
      expect(failedNames(report)).toEqual([]);
      expect(report.checks.map((c) => c.name)).toContain(
        "D18: the same downstream_order_no with other parameters is 409 idempotency_conflict",
      );
      expect(report.passed).toBeGreaterThan(25);
      // Issue 26.4: the after-sales extension is checked on the order the run bought, too.
      expect(report.checks.find((c) => c.name.startsWith("extension: a claim of a delivered line"))).toMatchObject({ ok: true });
    });
  }

  it("two Profile P runs back to back both pass: no run reuses a timestamp an earlier run signed with (D8)", async () => {
    for (let run = 0; run < 2; run++)
      expect(failedNames(await runConformance({ baseUrl: server.baseUrl, ...creds(), profile: "P" }))).toEqual([]);
  });

  it("the CLI prints one line per check and `N passed, 0 failed`, exit 0; bad arguments exit 2", () => {
    const args = [
      "tsx",
      "scripts/conformance/cli.ts",
      "--base-url",
      server.baseUrl,
      "--api-key",
      buyer.apiKey,
      "--api-secret",
      buyer.apiSecret,
      "--profile",
      "U",
    ];
    const run = spawnSync("npx", args, { encoding: "utf8", timeout: 120_000 });
    const lines = run.stdout.trim().split("\n");
    expect(run.status, run.stderr).toBe(0);
    expect(lines.at(-1)).toMatch(/^\d+ passed, 0 failed$/);
    expect(lines.slice(0, -1).every((l) => l.startsWith("PASS  "))).toBe(true);
    expect(spawnSync("npx", ["tsx", "scripts/conformance/cli.ts", "--profile", "X"], { encoding: "utf8" }).status).toBe(2);
  });
});

describe("issue 11.3: each fault of a broken server is reported", () => {
  const broken = async (faults: Faults, profile: "U" | "P" = "P") => {
    const stub = await startBrokenSupplier(server.baseUrl, faults);
    try {
      return await runConformance({ baseUrl: stub.baseUrl, ...creds(), profile });
    } finally {
      await stub.stop();
    }
  };

  it("signature not checked: the mis-signed requests are reported", async () => {
    const report = await broken({ resignWith: buyer.apiSecret });
    const failed = failedNames(report).join("\n");
    expect(failed).toMatch(/signature made with a wrong secret/);
    expect(failed).toMatch(/upper-case hex signature/);
    expect(failed).toMatch(/signature over another body/);
    expect(report.failed).toBeGreaterThan(0);
  });

  it("amounts as numbers: D3 and the document check fail", async () => {
    const failed = failedNames(await broken({ amountsAsNumbers: true }, "U")).join("\n");
    expect(failed).toMatch(/^D3: amounts are strings/m);
    expect(failed).toMatch(/^OpenAPI: .*balance/m);
  });

  it("issue 26.4: a server that answers a second claim of a line 200 (409 turned into 200): the after-sales check fails", async () => {
    const stub = await startBrokenSupplier(server.baseUrl, { statusMap: { 409: 200 } });
    try {
      const report = await runConformance({ baseUrl: stub.baseUrl, ...creds(), profile: "U", allowOrders: true, skuId });
      expect(failedNames(report).join("\n")).toMatch(
        /^extension: a claim of a delivered line.*: expected 409 line_already_claimed, got 200/m,
      );
    } finally {
      await stub.stop();
    }
  });

  it("a missing field: the document check names it", async () => {
    const failed = failedNames(await broken({ dropField: "user_id" })).join("\n");
    expect(failed).toMatch(/^OpenAPI: .*user_id/m);
  });

  it("a wrong status code (404 answered as 400): the not-found checks fail", async () => {
    const failed = failedNames(await broken({ statusMap: { 404: 400 } }, "U")).join("\n");
    expect(failed).toMatch(/^D11: an unknown product is 404/m);
    expect(failed).toMatch(/^D20\/D23: unknown orders are 404/m);
  });

  it("the CLI exits 1 and --json reports the failures", async () => {
    {
      const stub = await startBrokenSupplier(server.baseUrl, { dropField: "currency" });
      try {
        const args = [
          "tsx",
          "scripts/conformance/cli.ts",
          "--base-url",
          stub.baseUrl,
          "--api-key",
          buyer.apiKey,
          "--api-secret",
          buyer.apiSecret,
          "--profile",
          "P",
          "--json",
        ];
        const run = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
          const child = spawn("npx", args, { stdio: ["ignore", "pipe", "inherit"] });
          let stdout = "";
          child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
          child.on("exit", (status) => resolve({ status, stdout }));
        });
        expect(run.status).toBe(1);
        const report = JSON.parse(run.stdout) as ConformanceReport;
        expect(report.failed).toBeGreaterThan(0);
        expect(failedNames(report).join("\n")).toMatch(/currency/);
      } finally {
        await stub.stop();
      }
    }
  });
});
