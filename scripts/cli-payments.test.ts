import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../lib/db/client";
import { epayDriver } from "../lib/payments/drivers/epay";
import { startFakeEpay, type FakeEpay } from "../lib/testing/fake-gateways/epay";
import { makeBuyer } from "../lib/testing/factories";
import { runCli } from "../lib/testing/run-cli";
import { useTestDatabase } from "../lib/testing/test-database";

// Issue 36: payment channels and payments from the command line, one JSON
// line each; secrets only from files and never printed; bad input is exit 2
// with nothing written.

let url: string;
let dir: string;
let gateway: FakeEpay;
const cli = <T = unknown>(...args: string[]) => runCli<T>(args, { DATABASE_URL: url });

beforeAll(async () => {
  url = await useTestDatabase();
  gateway = await startFakeEpay();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "payments-cli-"));
  fs.writeFileSync(path.join(dir, "key"), `${gateway.key}\n`);
});
afterAll(async () => {
  await gateway?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run cli: payments (issue 36)", () => {
  it("payments:channel:add (key from a file, never printed), payments:channel:list, payments:channel:disable; bad input is exit 2, nothing written", async () => {
    const name = `cli-epay-${Date.now()}`;
    const added = await cli<{ id: number; notify_url: string; enabled: boolean }>(
      "payments:channel:add",
      ...["--driver", "epay", "--name", name, "--gateway-url", gateway.url, "--pid", gateway.pid, "--key-file", path.join(dir, "key")],
      ...["--min", "5.00", "--max", "100.00", "--expire-minutes", "15"],
    );
    expect(added.code).toBe(0);
    expect(added.json).toMatchObject({ name, driver: "epay", min: "5.00", max: "100.00", expire_minutes: 15, enabled: true });
    expect(added.json.notify_url).toMatch(new RegExp(`/api/payments/notify/${added.json.id}$`));
    expect(added.stdout).not.toContain(gateway.key);
    const stored = await db().paymentChannel.findUniqueOrThrow({ where: { id: added.json.id } });
    expect(Buffer.from(stored.keySealed).toString("utf8")).not.toContain(gateway.key); // sealed at rest
    const listed = await cli<{ channels: { id: number }[] }>("payments:channel:list");
    expect(listed.json.channels.map((c) => c.id)).toContain(added.json.id);
    expect(listed.stdout).not.toContain(gateway.key);
    expect((await cli<{ enabled: boolean }>("payments:channel:disable", "--id", String(added.json.id))).json.enabled).toBe(false);

    const before = await db().paymentChannel.count();
    for (const args of [
      ["--driver", "paypal", "--name", "x", "--key-file", path.join(dir, "key")],
      ["--driver", "epay", "--name", "x", "--gateway-url", gateway.url, "--key-file", path.join(dir, "key")], // no pid
      ["--driver", "epay", "--name", "x", "--gateway-url", "ftp://pay.example", "--pid", "1", "--key-file", path.join(dir, "key")],
      ["--driver", "epay", "--name", "x", "--gateway-url", gateway.url, "--pid", "1", "--key", "on-the-command-line"],
      ["--driver", "epay", "--name", "x", "--gateway-url", gateway.url, "--pid", "1", "--key-file", path.join(dir, "missing")],
      ["--driver", "stripe", "--name", "x", "--key-file", path.join(dir, "key")], // no webhook secret
      [
        "--driver",
        "epay",
        "--name",
        "x",
        "--gateway-url",
        gateway.url,
        "--pid",
        "1",
        "--key-file",
        path.join(dir, "key"),
        "--min",
        "1.001",
      ],
      [
        "--driver",
        "epay",
        "--name",
        "x",
        "--gateway-url",
        gateway.url,
        "--pid",
        "1",
        "--key-file",
        path.join(dir, "key"),
        "--min",
        "9",
        "--max",
        "5",
      ],
    ]) {
      const r = await cli("payments:channel:add", ...args);
      expect(r.code, args.join(" ")).toBe(2);
    }
    expect(await db().paymentChannel.count()).toBe(before);
  });

  it("payments:list, payments:query (asks the gateway; a paid answer credits once) and payments:confirm (once; a paid payment is refused)", async () => {
    const channel = await cli<{ id: number }>(
      "payments:channel:add",
      ...[
        "--driver",
        "epay",
        "--name",
        `cli-q-${Date.now()}`,
        "--gateway-url",
        gateway.url,
        "--pid",
        gateway.pid,
        "--key-file",
        path.join(dir, "key"),
      ],
    );
    const b = await makeBuyer({ pointsCents: 0n });
    const make = (no: string, cents: bigint) =>
      db().payment.create({
        data: {
          paymentNo: no,
          channelId: channel.json.id,
          userId: b.user.id,
          amountCents: cents,
          currency: "CNY",
          state: "pending",
          expiresAt: new Date(Date.now() + 600_000),
        },
      });
    const stamp = Date.now();
    const [asked, confirmed] = [`TPCLIQ${stamp}`, `TPCLIC${stamp}`];
    await make(asked, 300n);
    await make(confirmed, 400n);
    // The gateway knows the first as paid (its pay page was opened and paid).
    const { payUrl } = await epayDriver.create(
      {
        id: channel.json.id,
        driver: "epay",
        gatewayUrl: gateway.url,
        merchantId: gateway.pid,
        key: gateway.key,
        webhookSecret: null,
        apiBase: null,
        currency: "CNY",
      },
      {
        paymentNo: asked,
        amountCents: 300n,
        subject: "x",
        notifyUrl: "http://127.0.0.1:9/n",
        returnUrl: "http://127.0.0.1:9/r",
        expiresAt: new Date(),
        providerRef: null,
      },
    );
    expect((await fetch(payUrl)).status).toBe(200);
    gateway.markPaid(asked);
    const queried = await cli<{ outcome: string; supported: boolean }>("payments:query", "--payment-no", asked);
    expect(queried.json).toMatchObject({ supported: true, outcome: "credited" });
    expect((await cli<{ outcome: string }>("payments:query", "--payment-no", asked)).json.outcome).toBe("duplicate");
    expect((await cli("payments:confirm", "--payment-no", confirmed)).code).toBe(2); // no reference
    expect((await cli("payments:confirm", "--payment-no", confirmed, "--reference", "T-1")).code).toBe(0);
    expect((await cli("payments:confirm", "--payment-no", confirmed, "--reference", "T-1")).code).not.toBe(0);
    expect((await db().user.findUniqueOrThrow({ where: { id: b.user.id } })).balanceCents).toBe(700n);
    const paid = await cli<{ items: { payment_no: string; state: string }[] }>("payments:list", "--status", "paid", "--limit", "500");
    expect(paid.json.items.filter((p) => p.payment_no === asked || p.payment_no === confirmed)).toHaveLength(2);
    expect((await cli("payments:list", "--status", "nonsense")).code).toBe(2);
    expect((await cli<{ ok: boolean }>("points:reconcile")).json).toMatchObject({ ok: true, payment_mismatches: [] });
  });
});
