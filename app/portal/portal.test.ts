import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "@/lib/admins/create-admin";
import { CLI_ACTOR, SYSTEM_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/client";
import { supplierClient } from "@/lib/protocol/client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { cardKeysFor, makeBuyer, makeLevel, makeProduct } from "@/lib/testing/factories";
import { useTestDatabase } from "@/lib/testing/test-database";
import { approveTopUp } from "@/lib/top-ups/approve-top-up";
import { requestTopUp } from "@/lib/top-ups/request-top-up";
import { inviteBuyer } from "@/lib/users/invite-buyer";
import { registerBuyer } from "@/lib/users/register-buyer";
import { updateSettings } from "@/lib/settings/update-settings";
import { setMemberLevel } from "@/lib/users/set-member-level";
import { setPasswordWithLink } from "@/lib/users/set-password-with-link";
import { runCli } from "@/lib/testing/run-cli";
import { signIn as adminSignIn } from "@/lib/testing/sign-in-client";
import { PORTAL_ROUTES } from "./portal-routes";
import { stringMatching } from "@/lib/testing/matchers";

// Issue 24: the buyer portal over real HTTP against the real built server:
// sign-in and sessions (24.1), isolation between buyers on every route
// (24.3), the secret rotation overlap (decision 0039) and top-ups (24.2);
// issue 33: an account waiting for approval, and the key export's origin.

// Every sign-in runs scrypt (128 MiB); on a shared 2-core machine it is slow.
const SLOW = 300_000;
const PASSWORD = "portal password 1234";

let server: AppServer;
let url: string;
let seq = 0;

beforeAll(async () => {
  url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  server = await startAppServer(url);
}, SLOW);
afterAll(async () => server?.stop());

const get = (p: string, cookie?: string) => fetch(server.baseUrl + p, { redirect: "manual", headers: cookie ? { cookie } : {} });
const post = (p: string, cookie: string, body: object = {}) =>
  fetch(server.baseUrl + p, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify(body),
  });

/** A buyer with a portal password (through an invitation, as an administrator makes it) and an API key with points. */
async function portalBuyer() {
  const b = await makeBuyer({ pointsCents: 100_000n });
  const invite = await inviteBuyer({ email: b.user.email, actor: CLI_ACTOR });
  await setPasswordWithLink({ token: invite.inviteUrl.split("/").at(-1)!, password: PASSWORD });
  return b;
}

async function signIn(email: string, password = PASSWORD): Promise<string | null> {
  const res = await fetch(server.baseUrl + "/portal/session", {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
    body: new URLSearchParams({ email, password }).toString(),
  });
  expect(res.status).toBe(303);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("cardkey-portal-session="));
  return new URL(res.headers.get("location")!).pathname === "/portal" && cookie ? cookie : null;
}

const opensPortal = async (cookie: string) => (await get("/portal", cookie)).status === 200;

describe("issue 24.1: accounts and sign-in", { timeout: SLOW }, () => {
  it("issue 24.1: an invitation link sets a password once; the buyer signs in; a wrong password and an unknown e-mail answer alike", async () => {
    const b = await makeBuyer();
    const invite = await runCli<{ invite_url: string }>(["user:invite", "--email", b.user.email], { DATABASE_URL: url });
    expect(invite.code).toBe(0);
    expect(invite.json).toEqual({
      id: b.user.id,
      email: b.user.email,
      invite_url: stringMatching(/\/portal\/link\/[A-Za-z0-9_-]{43}$/),
    });
    const token = invite.json.invite_url.split("/").at(-1)!;
    const page = await get(`/portal/link/${token}`);
    expect(await page.text()).toContain(b.user.email);
    await setPasswordWithLink({ token, password: PASSWORD });
    await expect(setPasswordWithLink({ token, password: "another password 99" })).rejects.toMatchObject({ code: "not_found" });
    expect(await signIn(b.user.email, "wrong password 1234")).toBeNull();
    expect(await signIn(`nobody-${++seq}@example.test`)).toBeNull();
    const cookie = await signIn(b.user.email);
    expect(cookie).not.toBeNull();
    expect(await opensPortal(cookie!)).toBe(true);
    const audit = await db().auditLog.findMany({ where: { actor: `buyer:${b.user.email}` }, select: { action: true } });
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["buyer.password_set", "buyer.sign_in_failed", "buyer.sign_in"]));
  });

  it("issue 24.1: a portal session never opens /admin, and an admin session never opens /portal", async () => {
    const b = await portalBuyer();
    const portal = (await signIn(b.user.email))!;
    const admin = await adminSignIn(server.baseUrl, {
      email: (await createAdmin({ email: `admin-${++seq}@example.test`, password: PASSWORD }, { actor: SYSTEM_ACTOR })).email,
      password: PASSWORD,
    });
    expect((await get("/admin/settings", portal)).status).toBe(307);
    expect((await get("/portal", admin.session)).headers.get("location")).toMatch(/\/portal\/sign-in$/);
    expect((await post("/portal/api/top-ups", admin.session!, { amount: "1.00", transferReference: "x" })).status).toBe(401);
  });

  it("issue 24.1: disabling a buyer ends its sessions at once and it cannot sign in again; sign-out ends a copied cookie", async () => {
    const b = await portalBuyer();
    const [one, two] = [(await signIn(b.user.email))!, (await signIn(b.user.email))!];
    await post("/portal/sign-out", one);
    expect(await opensPortal(one)).toBe(false);
    expect(await opensPortal(two)).toBe(true);
    const disabled = await runCli(["user:disable", "--email", b.user.email], { DATABASE_URL: url });
    expect(disabled.json).toMatchObject({ id: b.user.id, disabled: true, sessions_ended: 1 });
    expect(await opensPortal(two)).toBe(false);
    expect(await signIn(b.user.email)).toBeNull();
  });
});

describe("issue 24.3: every portal route is scoped to the signed-in buyer", { timeout: SLOW }, () => {
  it("issue 24.3: the route list names every route file under app/portal", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(dir, e.name));
        else if (e.name === "page.tsx" || e.name === "route.ts") files.push(path.join(dir, e.name));
      }
    };
    walk(path.join(process.cwd(), "app/portal"));
    const routes = files.map(
      (f) =>
        "/" +
        path
          .relative(path.join(process.cwd(), "app"), path.dirname(f))
          .split(path.sep)
          .filter((s) => !/^\(.*\)$/.test(s))
          .join("/"),
    );
    expect(new Set(routes)).toEqual(new Set(PORTAL_ROUTES.map((r) => r.path)));
  });

  it("issue 24.3: buyer A gets 404 for each of buyer B's ids on every portal page, action and export, and never sees B's data", async () => {
    const [a, b] = [await portalBuyer(), await portalBuyer()];
    // B's things: a delivered order, a catalogue event, a session, a pending top-up.
    const { sku } = await makeProduct({ priceCents: 500n, cardKeys: cardKeysFor("ISO", 2) });
    const order = await supplierClient(server.baseUrl, "/api/v1/provider", b).post("/orders", {
      downstream_order_no: `B-SECRET-${++seq}`,
      sku_id: sku.id,
      quantity: 1,
    });
    const orderNo = ((await order.json()) as { order_no: string }).order_no;
    const event = await db().catalogEvent.create({
      data: { credentialId: b.id, url: "http://127.0.0.1:9/hook", body: "{}", productCount: 0, status: "failed" },
    });
    const cookieA = (await signIn(a.user.email))!;
    const cookieB = (await signIn(b.user.email))!;
    const sessionB = (
      await db().buyerSession.findFirstOrThrow({ where: { userId: b.user.id, revokedAt: null }, orderBy: { createdAt: "desc" } })
    ).id;
    await requestTopUp({ userId: b.user.id, input: { amount: "9.99", transferReference: "B-TRANSFER" }, actor: CLI_ACTOR });
    // Issue 36: B's payment through a gateway (a channel row; no gateway is called here).
    const channel = await db().paymentChannel.create({
      data: { name: `iso-${++seq}`, driver: "epusdt", gatewayUrl: "http://127.0.0.1:9", keySealed: new Uint8Array(8), currency: "CNY" },
    });
    const paymentNo = `TPB${++seq}SECRETPAYMENT`;
    await db().payment.create({
      data: {
        paymentNo,
        channelId: channel.id,
        userId: b.user.id,
        amountCents: 999n,
        currency: "CNY",
        state: "pending",
        expiresAt: new Date(Date.now() + 600_000),
      },
    });
    const ids: Record<string, string> = { orderNo, apiKey: b.apiKey, eventId: String(event.id), sessionId: sessionB, paymentNo };
    const bodies: Record<string, object> = {
      "/portal/api/keys/[apiKey]/rotate": { overlapHours: 1 },
      "/portal/api/two-factor/begin": { password: "not A's password" },
      "/portal/api/two-factor/enable": { code: "000000", password: "not A's password" },
      "/portal/api/two-factor/disable": { password: "not A's password" },
      "/portal/api/password": { password: "not A's password", newPassword: "A's new password 1", confirm: "A's new password 1" },
    };
    // Routes without an id act on the signed-in buyer only; these refuse A's deliberately wrong input.
    const refused: Record<string, number> = {
      "/portal/api/two-factor/begin": 400,
      "/portal/api/two-factor/enable": 400,
      "/portal/api/two-factor/disable": 400,
      "/portal/api/password": 400,
      // No channel_id in A's body: refused before any payment is made.
      "/portal/api/payments": 400,
    };
    const bMarkers = [orderNo, b.apiKey, b.user.email, "B-TRANSFER", "B-SECRET", paymentNo];
    let checked = 0;
    for (const route of PORTAL_ROUTES.filter((r) => r.kind !== "public")) {
      const params = [...route.path.matchAll(/\[(\w+)\]/g)].map((m) => m[1]);
      const p = route.path.replace(/\[(\w+)\]/g, (_, k: string) => encodeURIComponent(ids[k]));
      const res =
        route.method === "GET"
          ? await get(p, cookieA)
          : await post(p, cookieA, bodies[route.path] ?? { amount: "1.00", transferReference: "A-REF", name: "a" });
      const text = await res.text();
      if (params.length) expect(res.status, `${route.method} ${route.path}`).toBe(404);
      else expect(res.status, `${route.method} ${route.path}`).toBe(refused[route.path] ?? 200);
      // B's ids A typed into the URL may come back in the page's own route data; nothing else of B's may.
      for (const m of bMarkers.filter((x) => !p.includes(encodeURIComponent(x)))) expect(text, `${route.path} shows ${m}`).not.toContain(m);
      checked++;
    }
    expect(checked).toBe(PORTAL_ROUTES.filter((r) => r.kind !== "public").length);
    // Nothing of B's changed: its key, order, event and session are as they were.
    expect(await db().apiCredential.findUniqueOrThrow({ where: { id: b.id } })).toMatchObject({
      isActive: true,
      previousSecretUntil: null,
    });
    expect(await db().catalogEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({ status: "failed" });
    expect(await opensPortal(cookieB)).toBe(true);
    expect(await db().user.findUniqueOrThrow({ where: { id: b.user.id } })).toMatchObject({
      totpEnabled: false,
      totpSecretCiphertext: null,
    });
    expect(await db().auditLog.count({ where: { action: "order.keys_reveal", targetId: orderNo } })).toBe(0);
    // And B itself reaches its own: the same routes answer B.
    expect((await get(`/portal/orders/${orderNo}`, cookieB)).status).toBe(200);
  });
});

describe("issue 24.2: keys, orders and top-ups", { timeout: SLOW }, () => {
  it("decision 0039: after a rotation the old secret signs during the overlap and not after; overlap 0 stops it at once", async () => {
    const b = await portalBuyer();
    const cookie = (await signIn(b.user.email))!;
    // Profile P refuses the same signed request twice (D8): each ping gets its own second.
    let last = 0;
    const ping = async (secret: string) => {
      last = Math.max(Math.floor(Date.now() / 1000), last + 1);
      return (
        await supplierClient(server.baseUrl, "/api/v1/provider", { apiKey: b.apiKey, apiSecret: secret }).get("/ping", { timestamp: last })
      ).status;
    };
    expect(await ping(b.apiSecret)).toBe(200);
    const rotated = (await (await post(`/portal/api/keys/${b.apiKey}/rotate`, cookie, { overlapHours: 2 })).json()) as {
      reveal: { value: string }[];
    };
    const second = rotated.reveal[0].value;
    expect(await ping(second)).toBe(200);
    expect(await ping(b.apiSecret)).toBe(200);
    // The overlap ends (as if two hours passed): within the key cache's second, the old secret stops.
    await db().apiCredential.update({ where: { id: b.id }, data: { previousSecretUntil: new Date(Date.now() - 1) } });
    await expect.poll(() => ping(b.apiSecret), { timeout: 5000, interval: 300 }).toBe(401);
    expect(await ping(second)).toBe(200);
    const third = (
      (await (await post(`/portal/api/keys/${b.apiKey}/rotate`, cookie, { overlapHours: 0 })).json()) as { reveal: { value: string }[] }
    ).reveal[0].value;
    await expect.poll(() => ping(second), { timeout: 5000, interval: 300 }).toBe(401);
    expect(await ping(third)).toBe(200);
    expect((await post(`/portal/api/keys/${b.apiKey}/rotate`, cookie, { overlapHours: 73 })).status).toBe(400);
    const audit = await db().auditLog.findMany({ where: { action: "api_key.rotate_secret", targetId: String(b.id) } });
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit.map((a) => a.details))).not.toContain(second);
    expect(audit[0].actor).toBe(`buyer:${b.user.email}`);
  });

  it("issue 24.2: card keys are not in the order page until revealed; each reveal is audited as the buyer", async () => {
    const b = await portalBuyer();
    const keys = cardKeysFor("REVEAL", 1);
    const { sku } = await makeProduct({ priceCents: 700n, cardKeys: keys });
    const res = await supplierClient(server.baseUrl, "/api/v1/provider", b).post("/orders", {
      downstream_order_no: `R-${++seq}`,
      sku_id: sku.id,
      quantity: 1,
    });
    const orderNo = ((await res.json()) as { order_no: string }).order_no;
    const cookie = (await signIn(b.user.email))!;
    const page = await (await get(`/portal/orders/${orderNo}`, cookie)).text();
    expect(page).toContain(orderNo);
    expect(page).not.toContain(keys[0]);
    expect(await (await get("/portal/orders.csv", cookie)).text()).not.toContain(keys[0]);
    const revealed = (await (await post(`/portal/api/orders/${orderNo}/reveal`, cookie)).json()) as { lines: string[] };
    expect(revealed.lines).toEqual(keys);
    expect(await (await post("/portal/orders.csv", cookie)).text()).toContain(keys[0]);
    expect(await db().auditLog.count({ where: { action: "order.keys_reveal", targetId: orderNo, actor: `buyer:${b.user.email}` } })).toBe(
      1,
    );
    expect(await db().auditLog.count({ where: { action: "orders.export_keys", actor: `buyer:${b.user.email}` } })).toBe(1);
    expect(server.output()).not.toContain(keys[0]);
  });

  it("issue 24.2: the orders list and its CSV filter by status, dates and downstream order number; a bad filter value is ignored", async () => {
    const b = await portalBuyer();
    const { sku } = await makeProduct({ priceCents: 300n, cardKeys: cardKeysFor("FLT", 2) });
    const manual = await makeProduct({ priceCents: 400n, fulfillmentType: "manual", stockQuantity: 10 });
    const place = async (no: string, skuId: number) =>
      (
        (await (
          await supplierClient(server.baseUrl, "/api/v1/provider", b).post("/orders", {
            downstream_order_no: no,
            sku_id: skuId,
            quantity: 1,
          })
        ).json()) as { order_no: string }
      ).order_no;
    const delivered = await place(`FLT-A-${++seq}`, sku.id);
    const processing = await place(`FLT-B-${++seq}`, manual.sku.id);
    const old = await place(`FLT-C-${++seq}`, sku.id);
    await db().order.update({ where: { orderNo: old }, data: { createdAt: new Date("2026-01-15T12:00:00Z") } });
    const cookie = (await signIn(b.user.email))!;
    const listed = async (q: string) => {
      const csv = await (await get(`/portal/orders.csv?${q}`, cookie)).text();
      return [delivered, processing, old].filter((no) => csv.includes(no));
    };
    expect(await listed("")).toEqual([delivered, processing, old]);
    expect(await listed("status=delivered")).toEqual([delivered, old]);
    expect(await listed("status=processing")).toEqual([processing]);
    expect(await listed("downstream=FLT-B-")).toEqual([processing]);
    expect(await listed("from=2026-01-15&to=2026-01-15")).toEqual([old]);
    expect(await listed("from=2026-01-16")).toEqual([delivered, processing]);
    expect(await listed("status=bogus&from=not-a-day")).toEqual([delivered, processing, old]);
    const page = await (await get("/portal/orders?status=processing", cookie)).text();
    expect([page.includes(processing), page.includes(delivered)]).toEqual([true, false]);
  });

  it("issue 24.2: the price list (CSV) is this buyer's member-level price, as GET /products answers its key; inactive products are left out; search and category filter", async () => {
    const b = await portalBuyer();
    const level = await makeLevel();
    const { product, sku } = await makeProduct({ priceCents: 1000n, cardKeys: cardKeysFor("PL", 2) });
    const other = await makeProduct({ priceCents: 1500n, fulfillmentType: "manual", stockQuantity: null });
    const inactive = await makeProduct({ priceCents: 900n, isActive: false });
    await db().skuLevelPrice.create({ data: { skuId: sku.id, levelId: level.id, priceCents: 777n } });
    await setMemberLevel({ userId: b.user.id, level: level.slug }, { actor: CLI_ACTOR });
    const api = (await (await supplierClient(server.baseUrl, "/api/v1/provider", b).get(`/products/${product.id}`)).json()) as {
      skus: { id: number; price_amount: string }[];
    };
    expect(api.skus.find((s) => s.id === sku.id)?.price_amount).toBe("7.77");
    const cookie = (await signIn(b.user.email))!;
    const rowOf = (csv: string, code: string) => csv.split("\r\n").find((l) => l.includes(`"${code}"`));
    const all = await (await get("/portal/prices.csv", cookie)).text();
    expect(rowOf(all, sku.skuCode)).toContain(`"${sku.skuCode}","7.77","available","2"`);
    expect(rowOf(all, other.sku.skuCode)).toContain(`"${other.sku.skuCode}","15.00","unlimited"`);
    expect(rowOf(all, inactive.sku.skuCode)).toBeUndefined();
    const searched = await (await get(`/portal/prices.csv?q=${encodeURIComponent(sku.skuCode)}`, cookie)).text();
    expect([rowOf(searched, sku.skuCode) !== undefined, rowOf(searched, other.sku.skuCode)]).toEqual([true, undefined]);
    const byCategory = await (await get(`/portal/prices.csv?category=${other.product.categoryId}`, cookie)).text();
    expect([rowOf(byCategory, sku.skuCode), rowOf(byCategory, other.sku.skuCode) !== undefined]).toEqual([undefined, true]);
    // The page shows the same price, and another buyer (no level) the list price.
    expect(await (await get(`/portal/prices?q=${encodeURIComponent(sku.skuCode)}`, cookie)).text()).toContain("7.77");
    const plain = (await signIn((await portalBuyer()).user.email))!;
    expect(rowOf(await (await get("/portal/prices.csv", plain)).text(), sku.skuCode)).toContain(`"10.00"`);
  });

  it("issue 24.2: a top-up request moves no money; approving it credits the points once however many approvals race", async () => {
    const b = await portalBuyer();
    const cookie = (await signIn(b.user.email))!;
    const asked = (await (await post("/portal/api/top-ups", cookie, { amount: "250.00", transferReference: "BANK-1" })).json()) as {
      id: number;
    };
    expect((await post("/portal/api/top-ups", cookie, { amount: "-5.00", transferReference: "BANK-2" })).status).toBe(400);
    expect((await db().user.findUniqueOrThrow({ where: { id: b.user.id } })).balanceCents).toBe(100_000n);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => approveTopUp({ id: asked.id, actor: CLI_ACTOR })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").map((r) => (r.reason as { code: string }).code)).toEqual([
      "conflict",
      "conflict",
      "conflict",
      "conflict",
    ]);
    expect((await db().user.findUniqueOrThrow({ where: { id: b.user.id } })).balanceCents).toBe(125_000n);
    expect(await db().pointsLedger.count({ where: { userId: b.user.id, deltaCents: 25_000n } })).toBe(1);
    const statement = await (await get("/portal/statement.csv", cookie)).text();
    expect(statement).toContain("250.00");
    expect(statement).toContain("1250.00");
    const rejectAgain = await runCli(["topup:reject", "--id", String(asked.id), "--reason", "late"], { DATABASE_URL: url });
    expect(rejectAgain.code).toBe(1);
    const list = await runCli<{ top_ups: unknown[] }>(["topup:list", "--state", "approved"], { DATABASE_URL: url });
    expect(list.json.top_ups).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: asked.id, amount: "250.00", state: "approved", email: b.user.email })]),
    );
  });
});

describe("issue 33: what a session may do", { timeout: SLOW }, () => {
  it("issue 33.3: an account waiting for approval opens its overview (saying it waits) and account page only; every other page, export and action is refused, nothing written", async () => {
    await updateSettings({ buyer_registration: "approval" }, { actor: SYSTEM_ACTOR });
    const email = `pending-${++seq}@example.test`;
    const { url: link } = await registerBuyer({ email, ip: null });
    await setPasswordWithLink({ token: link!.split("/").at(-1)!, password: PASSWORD });
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    await makeProduct({ priceCents: 4321n, stockQuantity: 17 });
    const cookie = (await signIn(email))!;
    const other = (await signIn(email))!;
    const otherId = (await db().buyerSession.findFirstOrThrow({ where: { userId: user.id }, orderBy: { createdAt: "desc" } })).id;
    const ids: Record<string, string> = { orderNo: "ORD-NONE", apiKey: "sk_none", eventId: "1", sessionId: otherId, paymentNo: "TP-NONE" };
    const open = new Set([
      "/portal",
      "/portal/account",
      "/portal/api/sessions/[sessionId]/end",
      "/portal/api/two-factor/begin",
      "/portal/api/two-factor/disable",
      "/portal/api/password",
    ]);
    const bodies: Record<string, object> = {
      "/portal/api/two-factor/begin": { password: PASSWORD },
      "/portal/api/two-factor/disable": { password: PASSWORD },
      "/portal/api/password": { password: PASSWORD, newPassword: PASSWORD, confirm: PASSWORD },
    };
    const auditBefore = await db().auditLog.count({ where: { actor: `buyer:${email}` } });
    for (const route of PORTAL_ROUTES.filter((r) => r.kind !== "public" && r.path !== "/portal/api/two-factor/enable")) {
      const p = route.path.replace(/\[(\w+)\]/g, (_, k: string) => encodeURIComponent(ids[k]));
      const res =
        route.method === "GET"
          ? await get(p, cookie)
          : await post(
              p,
              cookie,
              bodies[route.path] ?? { amount: "1000000.00", transferReference: "PENDING-REF", name: "k", password: "x" },
            );
      const what = `${route.method} ${route.path}`;
      if (open.has(route.path)) expect(res.status, what).toBe(200);
      else if (route.kind === "page") expect([res.status, res.headers.get("location")], what).toEqual([307, "/portal"]);
      else expect([res.status, ((await res.json()) as { code: string }).code], what).toEqual([403, "account_pending"]);
    }
    expect(await (await get("/portal", cookie)).text()).toContain("waiting for an administrator");
    expect(await db().topUpRequest.count({ where: { userId: user.id } })).toBe(0);
    expect(await db().alertEvent.count({ where: { kind: "topup_request", params: { path: ["buyer"], equals: email } } })).toBe(0);
    expect(await db().apiCredential.count({ where: { userId: user.id } })).toBe(0);
    // Only the account page's own acts were audited: the other session ended, two-factor set-up begun and abandoned, the password set.
    const audit = await db().auditLog.findMany({ where: { actor: `buyer:${email}` }, orderBy: { id: "asc" }, skip: auditBefore });
    expect(audit.map((a) => a.action).sort()).toEqual([
      "buyer.password_change",
      "buyer.session_end",
      "buyer.totp_disabled",
      "buyer.totp_setup_started",
    ]);
    expect(await opensPortal(other)).toBe(false);
  });

  it("issue 33.5: cross-site key export refused with no audit row written (a link's GET, another site's POST, an unmarked request); the page's same-origin POST works", async () => {
    const b = await portalBuyer();
    const keys = cardKeysFor("XSITE", 1);
    const { sku } = await makeProduct({ priceCents: 600n, cardKeys: keys });
    await supplierClient(server.baseUrl, "/api/v1/provider", b).post("/orders", {
      downstream_order_no: `X-${++seq}`,
      sku_id: sku.id,
      quantity: 1,
    });
    const cookie = (await signIn(b.user.email))!;
    const csv = (method: "GET" | "POST", path: string, headers: Record<string, string>) =>
      fetch(server.baseUrl + path, { method, redirect: "manual", headers: { cookie, ...headers } });
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const refusals = [
      await csv("GET", "/portal/orders.csv?keys=1", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" }),
      await csv("GET", "/portal/orders.csv?keys=1", { "sec-fetch-site": "same-origin" }),
      await csv("POST", "/portal/orders.csv", { ...form, "sec-fetch-site": "cross-site", origin: "https://evil.example" }),
      await csv("POST", "/portal/orders.csv", { ...form, "sec-fetch-site": "same-site", origin: "https://shop.evil.example" }),
      await csv("POST", "/portal/orders.csv", { ...form, origin: "null" }),
      await csv("POST", "/portal/orders.csv", form), // says nothing of where it came from
    ];
    for (const res of refusals) {
      expect([403, 405]).toContain(res.status);
      expect(await res.text()).not.toContain(keys[0]);
    }
    expect(await db().auditLog.count({ where: { action: "orders.export_keys", actor: `buyer:${b.user.email}` } })).toBe(0);
    // The orders page's button: a form POST the browser marks same-origin.
    const own = await csv("POST", "/portal/orders.csv?status=delivered", {
      ...form,
      "sec-fetch-site": "same-origin",
      origin: server.baseUrl,
    });
    expect(own.status).toBe(200);
    expect(own.headers.get("content-disposition")).toContain("orders-with-keys.csv");
    expect(await own.text()).toContain(keys[0]);
    expect(await db().auditLog.count({ where: { action: "orders.export_keys", actor: `buyer:${b.user.email}` } })).toBe(1);
    // Without keys the GET export stays a plain download.
    expect(await (await csv("GET", "/portal/orders.csv", { "sec-fetch-site": "cross-site" })).text()).not.toContain(keys[0]);
  });
});
