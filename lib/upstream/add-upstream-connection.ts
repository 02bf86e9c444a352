import { encryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { UpstreamConnectionInputSchema, type UpstreamConnectionInput } from "./connection-input";
import { CURRENCY } from "../protocol/amount";
import { clientFor } from "./connection";
import { UpstreamError, type UpstreamClient } from "./upstream-client";

/**
 * Adds an upstream supplier. It is pinged first with the given credentials
 * (signed GET {prefix}/ping; a Dujiao-Next supplier's POST {their prefix}/ping,
 * whose currency must be ours); a connection that does not answer, or answers
 * with an error, is refused and nothing is stored. The secret is stored only
 * encrypted (AES-256-GCM) and never returned.
 */
export async function addUpstreamConnection(raw: UpstreamConnectionInput, { actor }: { actor: Actor }) {
  const parsed = UpstreamConnectionInputSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw appError("bad_request", `${String(i.path[0] ?? "input")}: ${i.message}`);
  }
  const input = parsed.data;
  let ping: Awaited<ReturnType<UpstreamClient["ping"]>>;
  try {
    ping = await clientFor(input).ping();
  } catch (err) {
    const why = err instanceof UpstreamError ? err.message : "ping failed";
    throw appError("upstream_unreachable", `the upstream did not answer the ping correctly (${why}); connection not added`);
  }
  // Issue 37.3: a Dujiao-Next supplier names its currency; its amounts are taken as ours only in ours.
  if (input.protocol === "dujiao_next" && ping.currency !== CURRENCY) {
    const theirs = /^[A-Z]{3}$/.test(ping.currency ?? "") ? ping.currency : "not a currency code";
    throw appError(
      "bad_request",
      `the supplier's currency is ${theirs}, ours is ${CURRENCY}: its prices cannot be taken; connection not added`,
    );
  }
  const balance = ping.balance;
  return db().$transaction(async (tx) => {
    const c = await tx.upstreamConnection.create({
      data: {
        name: input.name,
        baseUrl: input.baseUrl,
        profile: input.profile,
        protocol: input.protocol,
        apiKey: input.apiKey,
        secretCiphertext: encryptText(input.apiSecret),
        maxWaitSeconds: input.maxWaitSeconds,
        lastPingAt: new Date(),
        lastPingOk: true,
        lastBalance: balance,
      },
    });
    await writeAuditLog(tx, {
      actor,
      action: "upstream.add",
      targetType: "upstream_connection",
      targetId: String(c.id),
      details: { name: c.name, baseUrl: c.baseUrl, profile: c.profile, protocol: c.protocol },
    });
    return { id: c.id, name: c.name, balance };
  });
}
