import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "@/lib/testing/factories";
import { useTestDatabase } from "@/lib/testing/test-database";

// Issue 11.4: examples/downstream.ts makes a whole purchase against our server.

let server: AppServer;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;

beforeAll(async () => {
  const url = await useTestDatabase();
  buyer = await makeBuyer();
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

function runExample(env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["tsx", "examples/downstream.ts"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("issue 11.4: the example purchase", () => {
  for (const profile of ["U", "P"] as const) {
    it(`Profile ${profile}: ping, catalogue, order, wait, and each delivered line on its own stdout line`, async () => {
      const keys = cardKeysFor(`EX${profile}`, 2);
      const { sku } = await makeProduct({ cardKeys: keys });
      const r = await runExample({
        SUPPLIER_BASE_URL: server.baseUrl,
        SUPPLIER_API_KEY: buyer.apiKey,
        SUPPLIER_API_SECRET: buyer.apiSecret,
        SUPPLIER_PROFILE: profile,
        SUPPLIER_SKU_ID: String(sku.id),
      });
      expect(r.status, r.stderr).toBe(0);
      const lines = r.stdout.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(keys).toContain(lines[0]);
      expect(r.stderr).toMatch(/connected to .* balance \d+\.\d{2} CNY/);
      const order = await db().order.findFirstOrThrow({
        where: { credential: { apiKey: buyer.apiKey }, downstreamOrderNo: { startsWith: "EX-" } },
        orderBy: { id: "desc" },
      });
      expect(order.status).toBe("delivered");
    });
  }

  it("issue 35.5: a SUPPLIER_SKU_ID that is no SKU id exits 2 before any request is made", async () => {
    for (const value of ["12abc", "0", "1.5", "-3"]) {
      // A closed port: a run that called the supplier first would end in a connection error, exit 1.
      const r = await runExample({
        SUPPLIER_BASE_URL: "http://127.0.0.1:1",
        SUPPLIER_API_KEY: buyer.apiKey,
        SUPPLIER_API_SECRET: buyer.apiSecret,
        SUPPLIER_PROFILE: "U",
        SUPPLIER_SKU_ID: value,
      });
      expect([r.status, r.stderr], value).toEqual([
        2,
        "SUPPLIER_SKU_ID must be a SKU id: a positive whole number, as the catalogue lists it\n",
      ]);
    }
  });

  it("issue 35.5: the supplier's refusal is printed with one prefix: status and code once", async () => {
    const r = await runExample({
      SUPPLIER_BASE_URL: server.baseUrl,
      SUPPLIER_API_KEY: buyer.apiKey,
      SUPPLIER_API_SECRET: buyer.apiSecret,
      SUPPLIER_PROFILE: "P",
      SUPPLIER_SKU_ID: "2000000000",
    });
    expect(r.status).toBe(1);
    const last = r.stderr.trim().split("\n").at(-1)!;
    expect(last).toMatch(/^supplier answered 400 sku_unavailable: [^\d].* \(request [0-9a-f-]{36}\)$/);
    expect(last.match(/400 sku_unavailable/g)).toHaveLength(1);
  });

  it("exits 2 naming the missing variable", async () => {
    const r = await runExample({
      SUPPLIER_BASE_URL: server.baseUrl,
      SUPPLIER_API_KEY: "",
      SUPPLIER_API_SECRET: "",
      SUPPLIER_PROFILE: "P",
      SUPPLIER_SKU_ID: "1",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/set SUPPLIER_API_KEY, SUPPLIER_API_SECRET \(/);
  });
});
