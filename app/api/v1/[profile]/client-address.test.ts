import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "@/lib/admins/create-admin";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "@/lib/testing/test-database";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeBuyer } from "@/lib/testing/factories";
import { signedRawRequest } from "@/lib/testing/test-client";

// Issue 8.5: client addresses come from the socket unless a proxy is trusted.
// Real sockets bound to different loopback addresses act as different client
// hosts; the P per-IP limit (D31) and the audit log show which address counted.

const PER_IP = 4;
let url: string;
let plain: AppServer;
let hops: AppServer;
let cidr: AppServer;

beforeAll(async () => {
  url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: PER_IP } });
  [plain, hops, cidr] = await Promise.all([
    startAppServer(url),
    startAppServer(url, { TRUSTED_PROXIES: "1" }),
    startAppServer(url, { TRUSTED_PROXIES: "127.0.0.1/32" }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), hops?.stop(), cidr?.stop()]);
});

let n = 0;
/** A P ping from `from` with a new key each time (so only the per-IP limit can refuse), plus spoofable headers. */
async function ping(server: AppServer, from: string, headers: Record<string, string> = {}) {
  const key = await makeBuyer();
  const res = await signedRawRequest(server.baseUrl, key, { method: "GET", path: "/api/v1/provider/ping", localAddress: from, headers });
  return res.status;
}
const spoof = () => ({ "X-Forwarded-For": `198.51.100.${++n}`, "X-Client-Address": `192.0.2.${n}`, "X-Real-IP": `192.0.2.${n}` });

describe("issue 8.5: client addresses", () => {
  it("issue 8.5: with no trusted proxy, rotating X-Forwarded-For (or X-Client-Address) does not escape the P per-IP limit; another socket address has its own budget", async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= PER_IP; i++) statuses.push(await ping(plain, "127.0.0.2", spoof()));
    expect(statuses).toEqual([...Array<number>(PER_IP).fill(200), 429]);
    expect(await ping(plain, "127.0.0.3", spoof())).toBe(200);
  });

  it("issue 8.5: TRUSTED_PROXIES=1 uses the right-most X-Forwarded-For hop; entries left of it are the client's own claims", async () => {
    // Each request's proxy-reported client differs: separate budgets, though one socket address.
    for (let i = 0; i <= PER_IP; i++) expect(await ping(hops, "127.0.0.4", { "X-Forwarded-For": `203.0.113.${100 + i}` })).toBe(200);
    // One proxy-reported client with rotating spoofed entries to its left: one budget.
    const statuses: number[] = [];
    for (let i = 0; i <= PER_IP; i++) statuses.push(await ping(hops, "127.0.0.4", { "X-Forwarded-For": `10.9.9.${i}, 203.0.113.50` }));
    expect(statuses).toEqual([...Array<number>(PER_IP).fill(200), 429]);
  });

  it("issue 8.5: TRUSTED_PROXIES=127.0.0.1/32 trusts only that peer: X-Forwarded-For through it counts, from another socket address it is ignored", async () => {
    for (let i = 0; i <= PER_IP; i++)
      expect(await ping(cidr, "127.0.0.1", { "X-Forwarded-For": `10.1.1.1, 203.0.113.${150 + i}` })).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i <= PER_IP; i++) statuses.push(await ping(cidr, "127.0.0.5", { "X-Forwarded-For": `203.0.113.${200 + i}` }));
    expect(statuses).toEqual([...Array<number>(PER_IP).fill(200), 429]);
  });

  it("issue 8.5: the admin sign-in audit row records the socket address, not X-Forwarded-For", async () => {
    await createAdmin({ email: "addr@example.com", password: "correct horse battery staple" }, { actor: SYSTEM_ACTOR });
    const csrf = await request(plain, "127.0.0.6", "GET", "/api/auth/csrf");
    const cookie = csrf.cookies.join("; ");
    const body = new URLSearchParams({
      csrfToken: (JSON.parse(csrf.text) as { csrfToken: string }).csrfToken,
      email: "addr@example.com",
      password: "wrong password!!",
      json: "true",
    }).toString();
    await request(plain, "127.0.0.6", "POST", "/api/auth/callback/credentials", body, {
      cookie,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": "198.51.100.77",
      "x-client-address": "198.51.100.78",
    });
    const row = await db().auditLog.findFirstOrThrow({ where: { action: "admin.sign_in_failed", actor: "addr@example.com" } });
    expect(row.ip).toBe("127.0.0.6");
  });

  it("issue 8.5: a bad TRUSTED_PROXIES stops the server with one clear line", async () => {
    // Each refused value is covered by lib/config/trusted-proxies.test.ts; here: the real server refuses to start.
    for (const bad of ["10.0.0.0/33"]) {
      const err = await startAppServer(url, { TRUSTED_PROXIES: bad }).then(
        (s) => s.stop().then(() => new Error("started")),
        (e: Error) => e,
      );
      expect(err.message, bad).toContain("app server exited early");
      expect(err.message, bad).toMatch(/TRUSTED_PROXIES: .* is not a hop count, an IP address or a CIDR range/);
    }
  });
});

function request(
  server: AppServer,
  localAddress: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
) {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise<{ status: number; text: string; cookies: string[] }>((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port,
        method,
        path,
        localAddress,
        headers: { ...headers, ...(body ? { "content-length": String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text, cookies: (res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]) }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
