import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { startCallbackReceiver } from "../testing/callback-receiver";
import { assertCallbackUrlAllowed, restrictedReason, type Resolver } from "./address-policy";
import { sendCallback } from "./send-callback";

// D29: callback address rules, at order creation and again at connect time.
// Refused addresses are refused before any packet leaves: no traffic goes
// anywhere but 127.0.0.1 in these tests.

const creds = { apiKey: "sk_test", apiSecret: "secret-never-logged" };
/** A lying resolver: what a hostile DNS server (or a rebinding one) could answer. */
const resolverFor = (map: Record<string, string[]>): Resolver => async (host) => {
  const list = map[host];
  if (!list) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
  return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

afterEach(() => {
  delete process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS;
});

const RESTRICTED = [
  ["http://127.0.0.1/cb", "loopback"],
  ["http://127.1.2.3:8080/cb", "loopback"],
  ["http://[::1]/cb", "loopback"],
  ["http://10.0.0.5/cb", "private"],
  ["http://172.16.1.1/cb", "private"],
  ["http://192.168.1.1/cb", "private"],
  ["http://100.64.0.1/cb", "carrierGradeNat"],
  ["http://169.254.1.1/cb", "linkLocal"],
  ["http://[fe80::1]/cb", "linkLocal"],
  ["http://169.254.169.254/latest/meta-data", "cloud metadata"],
  ["http://[fd00:ec2::254]/latest", "cloud metadata"],
  ["http://[fd12:3456::1]/cb", "uniqueLocal"],
  ["http://224.0.0.1/cb", "multicast"],
  ["http://[ff02::1]/cb", "multicast"],
  ["http://0.0.0.0/cb", "unspecified"],
  ["http://[::]/cb", "unspecified"],
  ["http://[::ffff:127.0.0.1]/cb", "loopback"],
  ["http://[::ffff:a9fe:a9fe]/cb", "cloud metadata"],
  ["http://[::ffff:10.0.0.1]/cb", "private"],
  ["http://2130706433/cb", "loopback"], // decimal form of 127.0.0.1, normalised by the URL parser
  ["http://0x7f.1/cb", "loopback"],
] as const;

describe("restricted addresses", () => {
  it.each(RESTRICTED)("refuses %s at creation (400 bad_request, URL not echoed)", async (url) => {
    const err = await assertCallbackUrlAllowed(url, resolverFor({})).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "bad_request", status: 400 });
    expect((err as AppError).publicMessage).not.toContain(url);
  });

  it.each(RESTRICTED)("refuses %s at connect time (%s) without sending", async (url, reason) => {
    const result = await sendCallback(url, "{}", creds, { resolve: resolverFor({}) });
    expect(result.ok).toBe(false);
    expect(result.httpStatus).toBeNull();
    expect(result.error).toContain(`refused to connect: ${reason}`);
  });

  it("refuses host names that resolve to a restricted address: localhost (real DNS) and a lying resolver", async () => {
    await expect(assertCallbackUrlAllowed("http://localhost:9/cb")).rejects.toMatchObject({ code: "bad_request" });
    const local = await sendCallback("http://localhost:9/cb", "{}", creds);
    expect(local.error).toMatch(/^refused to connect: loopback address$/);
    const lying = resolverFor({ "hooks.example.com": ["93.184.216.34", "127.0.0.1"] });
    await expect(assertCallbackUrlAllowed("https://hooks.example.com/cb", lying)).rejects.toMatchObject({ code: "bad_request" });
    expect((await sendCallback("https://hooks.example.com/cb", "{}", creds, { resolve: lying })).error).toBe("refused to connect: loopback address");
  });

  it("DNS rebinding: a host that was public at creation and resolves to 127.0.0.1 at connect time is refused", async () => {
    let calls = 0;
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? "93.184.216.34" : "127.0.0.1", family: 4 }];
    await assertCallbackUrlAllowed("http://rebind.example.com/cb", rebinding); // passes: public at creation
    const result = await sendCallback("http://rebind.example.com/cb", "{}", creds, { resolve: rebinding });
    expect(result.error).toBe("refused to connect: loopback address");
  });

  it("the connection goes to the address that was checked (no second resolution by the socket)", async () => {
    process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
    const receiver = await startCallbackReceiver();
    try {
      const port = new URL(receiver.origin).port;
      // The name exists only in our resolver: reaching the receiver proves the socket used the checked answer.
      const result = await sendCallback(`http://only-in-test-resolver.invalid:${port}/cb`, '{"a":1}', creds, {
        resolve: resolverFor({ "only-in-test-resolver.invalid": ["127.0.0.1"] }),
      });
      expect(result).toMatchObject({ ok: true, httpStatus: 200, error: null });
      expect(receiver.received[0]).toMatchObject({ url: "/cb", body: '{"a":1}' });
      expect(receiver.received[0].headers.host).toBe(`only-in-test-resolver.invalid:${port}`);
    } finally {
      await receiver.close();
    }
  });

  it("allows public unicast addresses and http/https only", async () => {
    await assertCallbackUrlAllowed("http://93.184.216.34/cb");
    await assertCallbackUrlAllowed("https://hooks.example.com/cb?x=1", resolverFor({ "hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1"] }));
    for (const bad of ["ftp://93.184.216.34/x", "file:///etc/passwd", "javascript:alert(1)", "not a url", "http://unresolvable.invalid/"]) {
      await expect(assertCallbackUrlAllowed(bad, resolverFor({}))).rejects.toMatchObject({ code: "bad_request", status: 400 });
    }
  });

  it("CALLBACK_ALLOW_PRIVATE_NETWORKS=true admits loopback and private ranges but never metadata, link-local or multicast", () => {
    process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
    for (const ok of ["127.0.0.1", "::1", "10.1.1.1", "192.168.0.2", "fd12::1", "100.64.0.9", "::ffff:127.0.0.1"]) expect(restrictedReason(ok)).toBeNull();
    for (const bad of ["169.254.169.254", "fd00:ec2::254", "169.254.10.10", "fe80::1", "224.0.0.1", "0.0.0.0"]) expect(restrictedReason(bad)).not.toBeNull();
    delete process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS;
    expect(restrictedReason("127.0.0.1")).toBe("loopback address");
  });
});
