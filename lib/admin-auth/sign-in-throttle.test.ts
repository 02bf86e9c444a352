import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing/test-database";
import { PER_ACCOUNT_ADDRESS_LIMIT, PER_ADDRESS_LIMIT, reserveSignIn } from "./sign-in-throttle";

// Issue 22.3: sign-in guessing is counted per IPv6 /64 (one host's usual
// allocation), per IPv4 address, and an IPv4-mapped IPv6 address as its IPv4
// address. Real counters in PostgreSQL; each attempt names a fresh e-mail
// unless the lock-out itself is under test.

beforeAll(async () => {
  await useTestDatabase();
});

let n = 0;
const attempt = (ip: string, email = `guess-${++n}@example.test`) => reserveSignIn(email, ip, false);

describe("issue 22.3: sign-in throttling per IPv6 /64", () => {
  it("issue 22.3: addresses of one IPv6 /64 share one allowance; another /64 has its own", async () => {
    for (let i = 1; i <= PER_ADDRESS_LIMIT; i++) expect((await attempt(`2001:db8:1:2::${i.toString(16)}`)).ok).toBe(true);
    // A fresh address of the same /64 (say, a new privacy address) is refused like the others.
    expect(await attempt("2001:db8:1:2:9f3c:41ff:fe00:77")).toMatchObject({ ok: false, refusedBy: "address" });
    expect(await attempt("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toMatchObject({ ok: false, refusedBy: "address" });
    expect((await attempt("2001:db8:1:3::1")).ok).toBe(true);
  });

  it("issue 22.3: the account lock-out also counts the /64, not each address of it", async () => {
    const email = "locked@example.test";
    for (let i = 1; i <= PER_ACCOUNT_ADDRESS_LIMIT; i++) expect((await attempt(`2001:db8:aa:bb::${i}`, email)).ok).toBe(true);
    expect(await attempt("2001:db8:aa:bb:1:2:3:4", email)).toMatchObject({ ok: false, refusedBy: "account_address" });
    expect((await attempt("2001:db8:aa:bc::1", email)).ok).toBe(true);
  });

  it("issue 22.3: IPv4 stays per address, and an IPv4-mapped IPv6 address counts as its IPv4 address", async () => {
    for (let i = 0; i < PER_ADDRESS_LIMIT; i++) expect((await attempt(i % 2 ? "198.51.100.7" : "::ffff:198.51.100.7")).ok).toBe(true);
    expect(await attempt("198.51.100.7")).toMatchObject({ ok: false, refusedBy: "address" });
    expect(await attempt("::ffff:c633:6407")).toMatchObject({ ok: false, refusedBy: "address" });
    expect((await attempt("198.51.100.8")).ok).toBe(true);
  });
});
