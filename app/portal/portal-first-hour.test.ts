import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR, SYSTEM_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/client";
import { clientOrderExample, curlOrderExample } from "@/lib/portal/integration-examples";
import { updateSettings } from "@/lib/settings/update-settings";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { addSiteMailChannel, startSmtpSink } from "@/lib/testing/smtp-sink";
import { cardKeysFor, makeBuyer, makeProduct } from "@/lib/testing/factories";
import { useTestDatabase } from "@/lib/testing/test-database";
import { inviteBuyer } from "@/lib/users/invite-buyer";
import { setPasswordWithLink } from "@/lib/users/set-password-with-link";

// Issue 35.4 (last test): the forgot-password page promises a mail only when one can go.
// Issue 35.1: the portal gets a buyer to a first order by itself. What the
// Integration page shows is run here as a buyer would run it, against the
// real built server: the curl example in bash (curl and openssl), the typed
// client example with the client downloaded from /docs/files, and the
// downloaded conformance kit. Each places or checks real orders.

const run = promisify(execFile);
const SLOW = 300_000;
const PASSWORD = "integration password 1";
let server: AppServer;
let dir: string;

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  server = await startAppServer(url);
  await updateSettings({ public_base_url: server.baseUrl }, { actor: SYSTEM_ACTOR });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-integration-"));
}, SLOW);
afterAll(async () => {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function download(name: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/docs/files/${name}`);
  expect(res.status, name).toBe(200);
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

describe("issue 35.1: the Integration page's examples and downloads work as shown", { timeout: SLOW }, () => {
  it("issue 35.1: the curl example, run in bash with the secret in the environment, places an order that is delivered and reads it back by order_id", async () => {
    const b = await makeBuyer({ pointsCents: 10_000n });
    const { sku } = await makeProduct({ priceCents: 250n, cardKeys: cardKeysFor("CURLEX", 1) });
    const script = curlOrderExample({ baseUrl: server.baseUrl, apiKey: b.apiKey, skuId: sku.id });
    expect(script).not.toContain(b.apiSecret);
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", script], { env: { ...process.env, API_SECRET: b.apiSecret } });
    const [created, read] = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(created).toMatchObject({ ok: true, amount: "2.50" });
    expect(["processing", "delivered"]).toContain(created.status); // Profile P may answer a new order "processing" (D19)
    expect(read).toMatchObject({ ok: true, order_id: created.order_id, status: "delivered" });
    expect(await db().order.count({ where: { credentialId: b.id } })).toBe(1);
  });

  it("issue 35.1: the typed client downloaded from /docs/files runs the page's client example: an order placed and waited for", async () => {
    const b = await makeBuyer({ pointsCents: 10_000n });
    const { sku } = await makeProduct({ priceCents: 300n, cardKeys: cardKeysFor("CLIENTEX", 1) });
    await download("supplier-client.mjs");
    fs.writeFileSync(path.join(dir, "order.mjs"), clientOrderExample({ baseUrl: server.baseUrl, apiKey: b.apiKey, skuId: sku.id }));
    const { stdout } = await run(process.execPath, ["order.mjs"], { cwd: dir, env: { ...process.env, API_SECRET: b.apiSecret } });
    // Profile P answers a new order "processing" (D19); waitForOrder reads it until delivered.
    expect(stdout).toMatch(/^\d+ \S+ (processing|delivered)\ndelivered \[ 'CLIENTEX-/);
    expect(await db().order.count({ where: { credentialId: b.id, status: "delivered" } })).toBe(1);
  });

  it("issue 35.1: the downloaded conformance kit checks this server (Profile U, no orders) and passes; the guide and decisions are served; other names are 404", async () => {
    const b = await makeBuyer({ pointsCents: 10_000n });
    const kit = await download("supplier-conformance.mjs");
    fs.writeFileSync(path.join(dir, "secret.txt"), b.apiSecret);
    const args = [
      kit,
      "--base-url",
      server.baseUrl,
      "--api-key",
      b.apiKey,
      "--api-secret-file",
      path.join(dir, "secret.txt"),
      "--profile",
      "U",
    ];
    const { stdout } = await run(process.execPath, args, { cwd: dir });
    expect(stdout).toMatch(/\d+ passed, 0 failed/);
    const guide = await fetch(`${server.baseUrl}/docs/files/protocol.md`);
    expect(guide.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await guide.text()).toContain("## Signing requests");
    expect(await (await fetch(`${server.baseUrl}/docs/files/decisions.md`)).text()).toContain("D33");
    for (const name of ["package.json", "..%2Fpackage.json", "client.ts", "toString"])
      expect((await fetch(`${server.baseUrl}/docs/files/${name}`)).status, name).toBe(404);
  });

  it("issue 35.1: the signed-in Integration page shows the order example with this site's base URL, the buyer's key id and a SKU id it can order, and links the downloads; never the secret", async () => {
    const b = await makeBuyer({ pointsCents: 10_000n });
    const invite = await inviteBuyer({ email: b.user.email, actor: CLI_ACTOR });
    await setPasswordWithLink({ token: invite.inviteUrl.split("/").at(-1)!, password: PASSWORD });
    await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("PAGEEX", 1) });
    const signIn = await fetch(`${server.baseUrl}/portal/session`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
      body: new URLSearchParams({ email: b.user.email, password: PASSWORD }).toString(),
    });
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .find((c) => c.startsWith("cardkey-portal-session="))!;
    const html = await (await fetch(`${server.baseUrl}/portal/integration`, { headers: { cookie } })).text();
    expect(html).toContain(`KEY=${b.apiKey}`);
    expect(html).toContain(`BASE=${server.baseUrl}`);
    expect(html).toMatch(/&quot;sku_id&quot;:\d+,/);
    expect(html).toContain(`/api/v1/provider/orders`);
    for (const name of ["protocol.md", "decisions.md", "supplier-client.mjs", "supplier-conformance.mjs"])
      expect(html).toContain(`/docs/files/${name}`);
    expect(html).not.toContain(b.apiSecret);
  });
});

describe("issue 35.4: honest about mail", { timeout: SLOW }, () => {
  it("issue 35.4: with no e-mail channel the forgot-password page tells the buyer to ask the supplier and shows no form; with one, the form", async () => {
    const page = async () => (await fetch(`${server.baseUrl}/portal/forgot`)).text();
    const before = await page();
    expect(before).toContain("portal-forgot-no-mail");
    expect(before).not.toContain("/portal/forgot/send");
    const smtp = await startSmtpSink();
    try {
      process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // the sink is on loopback (issue 33.2's address policy)
      await addSiteMailChannel(smtp);
      const after = await page();
      expect(after).not.toContain("portal-forgot-no-mail");
      expect(after).toContain("/portal/forgot/send");
    } finally {
      await smtp.close();
    }
  });
});
