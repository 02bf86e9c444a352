import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "@/lib/admins/create-admin";
import { encryptText } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeProduct } from "@/lib/testing/factories";
import { useTestDatabase } from "@/lib/testing/test-database";
import { signIn } from "@/lib/testing/sign-in-client";

// Issue 22.7 (decision 0032): the console and /docs answer with a CSP that no
// site can frame and that runs only this answer's scripts, Referrer-Policy
// same-origin, HSTS when the public URL is https; and the console never has
// the administrator's browser fetch an upstream's image address.

const SLOW_MACHINE_MS = 300_000;
const PASSWORD = "correct horse battery staple";
const UPSTREAM_IMAGES = "img.upstream.test";

let plain: AppServer;
let tls: AppServer;
let session: string;

beforeAll(async () => {
  const url = await useTestDatabase();
  [plain, tls] = await Promise.all([startAppServer(url), startAppServer(url, { NEXTAUTH_URL: "https://console.example.com" })]);
  await createAdmin({ email: "headers@example.com", password: PASSWORD }, { actor: SYSTEM_ACTOR });
  session = (await signIn(plain.baseUrl, { email: "headers@example.com", password: PASSWORD, from: "127.0.0.61" })).session!;
}, SLOW_MACHINE_MS);
afterAll(async () => Promise.all([plain?.stop(), tls?.stop()]));

const get = (base: string, path: string, headers: Record<string, string> = {}) =>
  fetch(new URL(path, base), { headers, redirect: "manual" });
const directives = (csp: string) =>
  new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);

describe("issue 22.7: headers of the pages a browser opens", { timeout: SLOW_MACHINE_MS }, () => {
  it("issue 22.7: console pages, the sign-in page, a redirect to it and /docs forbid framing and send Referrer-Policy same-origin; no HSTS over a plain-http public URL", async () => {
    const answers = {
      console: await get(plain.baseUrl, "/admin/settings", { cookie: session }),
      signIn: await get(plain.baseUrl, "/admin/sign-in"),
      redirect: await get(plain.baseUrl, "/admin/orders"),
      docs: await get(plain.baseUrl, "/docs"),
      docsAsset: await get(plain.baseUrl, "/docs/assets/init.js"),
    };
    expect(answers.console.status).toBe(200);
    expect(answers.signIn.status).toBe(200);
    expect(answers.redirect.status).toBe(307);
    expect(answers.docs.status).toBe(200);
    expect(answers.docsAsset.status).toBe(200);
    for (const [kind, res] of Object.entries(answers)) {
      const csp = directives(res.headers.get("content-security-policy") ?? "");
      expect(csp.get("frame-ancestors"), kind).toEqual(["'none'"]);
      expect(csp.get("script-src"), kind).not.toContain("'unsafe-inline'");
      expect(csp.get("script-src"), kind).not.toContain("'unsafe-eval'");
      expect(
        csp.get("img-src")?.filter((s) => !["'self'", "data:", "blob:"].includes(s)),
        kind,
      ).toEqual([]);
      expect(res.headers.get("referrer-policy"), kind).toBe("same-origin");
      expect(res.headers.get("x-content-type-options"), kind).toBe("nosniff");
      expect(res.headers.get("strict-transport-security"), kind).toBeNull();
    }
    // The reference page has no inline script at all: 'self' only, no nonce.
    expect(directives(answers.docs.headers.get("content-security-policy")!).get("script-src")).toEqual(["'self'"]);
  });

  it("issue 22.7: Next's scripts carry this answer's nonce, a new one each time, which a client cannot choose", async () => {
    for (const path of ["/admin/settings", "/admin/sign-in"]) {
      const nonces: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await get(plain.baseUrl, path, { cookie: session, "content-security-policy": "script-src 'nonce-chosenbytheclient'" });
        const html = await res.text();
        const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
        expect(nonce, path).toBeTruthy();
        const scripts = scriptTags(html);
        expect(scripts.length, path).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
        expect(html).not.toContain("chosenbytheclient");
        nonces.push(nonce!);
      }
      expect(nonces[0]).not.toBe(nonces[1]);
    }
  });

  it("issue 22.7: behind an https public URL the console, the sign-in page and /docs send Strict-Transport-Security", async () => {
    for (const path of ["/admin/sign-in", "/admin/orders", "/docs"]) {
      const res = await get(tls.baseUrl, path);
      expect(res.headers.get("strict-transport-security"), path).toMatch(/^max-age=31536000\b/);
      expect(directives(res.headers.get("content-security-policy") ?? "").get("frame-ancestors"), path).toEqual(["'none'"]);
    }
  });

  it("issue 22.7: the console page of an upstream-imported product gives the browser no upstream image address to fetch", async () => {
    const { product } = await makeProduct({
      fulfillmentType: "upstream",
      content: { "zh-CN": "详情", en: `![box](https://${UPSTREAM_IMAGES}/content.png)` },
    });
    const conn = await db().upstreamConnection.create({
      data: { name: "images", baseUrl: "http://127.0.0.1:9", profile: "U", apiKey: "k", secretCiphertext: encryptText("s") },
    });
    // As upstream:import stores them: the upstream's own addresses.
    await db().product.update({
      where: { id: product.id },
      data: {
        upstreamConnectionId: conn.id,
        upstreamProductId: 7,
        logo: `https://${UPSTREAM_IMAGES}/logo.png`,
        images: [`https://${UPSTREAM_IMAGES}/1.png`, `http://${UPSTREAM_IMAGES}/2.png`],
      },
    });
    const res = await get(plain.baseUrl, `/admin/catalog/products/${product.id}`, { cookie: session });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="external-image"');
    // Neither an element's src/srcset/href/poster nor the same props in the RSC payload (escaped inside a script).
    expect(html).not.toMatch(
      new RegExp(`(src|srcSet|srcset|href|poster)\\\\?"?\\s*[=:]\\s*\\\\?"[^"\\\\]*${UPSTREAM_IMAGES.replace(/\./g, "\\.")}`),
    );
    expect(html).not.toMatch(new RegExp(`url\\([^)]*${UPSTREAM_IMAGES.replace(/\./g, "\\.")}`));
    // And were one written, the policy refuses to fetch it.
    expect(directives(res.headers.get("content-security-policy") ?? "").get("img-src")).toEqual(["'self'", "data:", "blob:"]);
  });
});
