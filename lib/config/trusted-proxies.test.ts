import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseTrustedProxies, trustedProxiesWarning } from "./trusted-proxies";

describe("issue 8.5: TRUSTED_PROXIES parsing", () => {
  it("issue 8.5: none by default; a hop count trusts that many hops; a CIDR list trusts its ranges", () => {
    for (const none of [undefined, "", " ", "none", "0"]) expect(parseTrustedProxies(none)("127.0.0.1", 0)).toBe(false);
    const two = parseTrustedProxies("2");
    expect([two("1.1.1.1", 0), two("1.1.1.1", 1), two("1.1.1.1", 2)]).toEqual([true, true, false]);
    const list = parseTrustedProxies("10.0.0.0/8, 127.0.0.1/32,::1, fd00::/8, loopback");
    expect(list("10.200.0.1", 0)).toBe(true);
    expect(list("127.0.0.1", 3)).toBe(true);
    expect(list("11.0.0.1", 0)).toBe(false);
    expect(list("fd12::1", 0)).toBe(true);
  });

  it("issue 8.5: anything else is refused with one line naming the entry", () => {
    for (const bad of ["10.0.0.0/33", "1.2.3", "abc", "10.0.0.0/8,", "1.2.3.4/8/8", "-1", "33", "10.0.0.0/ 8x", "::1/129", "0x7f.1"]) {
      expect(() => parseTrustedProxies(bad), bad).toThrow(/^TRUSTED_PROXIES: /);
    }
  });

  it("issue 8.5: npm start stops on a bad value with one clear line before touching any database", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      env: { ...process.env, TRUSTED_PROXIES: "10.0.0.0/33", DATABASE_URL: "postgres://127.0.0.1:1/none", DATA_DIR: "/nonexistent/x" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^start: configuration error: TRUSTED_PROXIES: "10.0.0.0\/33" is not a hop count/),
    ]);
  });

  it("issue 33.7: a hop count is accepted but warned about at start (any direct client chooses its address); addresses and none are not", () => {
    for (const hops of ["1", " 2 "])
      expect(trustedProxiesWarning(hops)).toMatch(/^TRUSTED_PROXIES=\d+ is a hop count: any client that reaches this server directly/);
    for (const quiet of [undefined, "", "none", "0", "172.28.33.10", "10.0.0.0/8, 127.0.0.1/32", "loopback"])
      expect(trustedProxiesWarning(quiet)).toBeNull();
  });
});
