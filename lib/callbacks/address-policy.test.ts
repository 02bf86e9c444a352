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
const resolverFor =
  (map: Record<string, string[]>): Resolver =>
  (host) => {
    const list = map[host];
    if (!list) return Promise.reject(Object.assign(new Error("not found"), { code: "ENOTFOUND" }));
    return Promise.resolve(list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));
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
    const err = await assertCallbackUrlAllowed(url, resolverFor({})).then(
      () => null,
      (e: unknown) => e,
    );
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
    expect((await sendCallback("https://hooks.example.com/cb", "{}", creds, { resolve: lying })).error).toBe(
      "refused to connect: loopback address",
    );
  });

  it("DNS rebinding: a host that was public at creation and resolves to 127.0.0.1 at connect time is refused", async () => {
    let calls = 0;
    const rebinding: Resolver = () => Promise.resolve([{ address: calls++ === 0 ? "93.184.216.34" : "127.0.0.1", family: 4 }]);
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
    await assertCallbackUrlAllowed(
      "https://hooks.example.com/cb?x=1",
      resolverFor({ "hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1"] }),
    );
    for (const bad of ["ftp://93.184.216.34/x", "file:///etc/passwd", "javascript:alert(1)", "not a url", "http://unresolvable.invalid/"]) {
      await expect(assertCallbackUrlAllowed(bad, resolverFor({}))).rejects.toMatchObject({ code: "bad_request", status: 400 });
    }
  });

  it("CALLBACK_ALLOW_PRIVATE_NETWORKS=true admits loopback and private ranges but never metadata, link-local or multicast", () => {
    process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
    for (const ok of ["127.0.0.1", "::1", "10.1.1.1", "192.168.0.2", "fd12::1", "100.64.0.9", "::ffff:127.0.0.1"])
      expect(restrictedReason(ok)).toBeNull();
    for (const bad of ["169.254.169.254", "fd00:ec2::254", "169.254.10.10", "fe80::1", "224.0.0.1", "0.0.0.0"])
      expect(restrictedReason(bad)).not.toBeNull();
    delete process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS;
    expect(restrictedReason("127.0.0.1")).toBe("loopback address");
  });
});

describe("issue 8.7 D29: IPv4-compatible IPv6 and cloud metadata", () => {
  it("issue 8.7 D29: the IPv4-compatible range ::/96 is refused, with or without the private-network switch", async () => {
    for (const allow of [false, true]) {
      // ::7f00:1 is ::127.0.0.1, ::a9fe:a9fe is ::169.254.169.254, ::5db8:d822 is ::93.184.216.34.
      for (const address of ["::7f00:1", "::a9fe:a9fe", "::a00:1", "::5db8:d822"]) {
        expect(restrictedReason(address, allow), address).toBe("IPv4-compatible IPv6 address");
      }
      expect(restrictedReason("::1", allow)).toBe(allow ? null : "loopback address");
    }
    for (const url of ["http://[::127.0.0.1]/cb", "http://[::a9fe:a9fe]/latest", "http://[::93.184.216.34]/cb"]) {
      await expect(assertCallbackUrlAllowed(url, resolverFor({})), url).rejects.toMatchObject({ code: "bad_request", status: 400 });
      expect((await sendCallback(url, "{}", creds, { resolve: resolverFor({}) })).error).toBe(
        "refused to connect: IPv4-compatible IPv6 address",
      );
    }
  });

  it("issue 8.7 D29: every cloud metadata address is refused even with CALLBACK_ALLOW_PRIVATE_NETWORKS=true", async () => {
    process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
    const metadata = [
      "169.254.169.254",
      "fd00:ec2::254",
      "100.100.100.200",
      "169.254.170.2",
      "168.63.129.16",
      "192.0.0.192",
      "::ffff:100.100.100.200",
    ];
    for (const address of metadata) expect(restrictedReason(address), address).toBe("cloud metadata address");
    // The rest of CGNAT stays open with the switch, as before.
    expect(restrictedReason("100.100.100.201")).toBeNull();
    const alibaba = await sendCallback("http://100.100.100.200/latest/meta-data/", "{}", creds, { resolve: resolverFor({}) });
    expect(alibaba.error).toBe("refused to connect: cloud metadata address");
    await expect(assertCallbackUrlAllowed("http://100.100.100.200/latest/meta-data/", resolverFor({}))).rejects.toMatchObject({
      code: "bad_request",
    });
  });

  it("issue 8.7 D29: metadata host names (GCP metadata.google.internal → 169.254.169.254) are refused by name and by address", async () => {
    process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
    // A resolver that answers an allowed address for the name: the name alone is enough to refuse.
    const lying = resolverFor({
      "metadata.google.internal": ["10.0.0.1"],
      "metadata.google.internal.": ["10.0.0.1"],
      "instance-data": ["10.0.0.1"],
    });
    for (const url of [
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://METADATA.google.internal./x",
      "http://instance-data/latest",
    ]) {
      await expect(assertCallbackUrlAllowed(url, lying), url).rejects.toMatchObject({ code: "bad_request", status: 400 });
      expect((await sendCallback(url, "{}", creds, { resolve: lying })).error, url).toBe("refused to connect: cloud metadata address");
    }
    // What the name really resolves to inside GCP is refused as well.
    const gcp = resolverFor({ "metadata.example.internal": ["169.254.169.254"] });
    await expect(assertCallbackUrlAllowed("http://metadata.example.internal/", gcp)).rejects.toMatchObject({ code: "bad_request" });
  });
});
