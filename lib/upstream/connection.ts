import { env } from "../config/env";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import type { UpstreamProtocol } from "../generated/prisma/enums";
import type { Profile } from "../protocol/profiles";
import { dujiaoNextClient } from "./dujiao-next-client";
import { upstreamClient, type UpstreamClient } from "./upstream-client";

export interface LoadedConnection {
  id: number;
  name: string;
  baseUrl: string;
  profile: Profile;
  /** Issue 37.3: svc (ours) or dujiao_next. */
  protocol: UpstreamProtocol;
  apiKey: string;
  /** Decrypted for this call only; never log or return it. */
  apiSecret: string;
  maxWaitSeconds: number;
  isEnabled: boolean;
}

/** A connection with its secret opened (AES-256-GCM at rest), or 404. */
export async function loadConnection(id: number, tx: Tx = db()): Promise<LoadedConnection> {
  const c = await tx.upstreamConnection.findUnique({ where: { id } });
  if (!c) throw appError("not_found", `upstream connection ${id} not found`);
  return {
    id: c.id,
    name: c.name,
    baseUrl: c.baseUrl,
    profile: c.profile,
    protocol: c.protocol,
    apiKey: c.apiKey,
    apiSecret: decryptText(c.secretCiphertext),
    maxWaitSeconds: c.maxWaitSeconds,
    isEnabled: c.isEnabled,
  };
}

/** The client of the connection's protocol (issue 37.3): the same interface for every supplier. */
export function clientFor(
  c: Pick<LoadedConnection, "baseUrl" | "profile" | "protocol" | "apiKey" | "apiSecret">,
  opts: { timeoutMs?: number } = {},
): UpstreamClient {
  const endpoint = { baseUrl: c.baseUrl, apiKey: c.apiKey, apiSecret: c.apiSecret };
  return c.protocol === "dujiao_next" ? dujiaoNextClient(endpoint, opts) : upstreamClient({ ...endpoint, profile: c.profile }, opts);
}

/** Where an upstream sends us order callbacks and catalogue events (UPSTREAM_CALLBACK_BASE_URL): one endpoint per connection. */
export function upstreamCallbackUrl(connectionId: number): string | null {
  const base = env().UPSTREAM_CALLBACK_BASE_URL?.replace(/\/+$/, "");
  return base ? `${base}/api/upstream-callbacks/${connectionId}` : null;
}
