import { env } from "../config/env";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import type { Profile } from "../protocol/profiles";
import { upstreamClient, type UpstreamClient } from "./upstream-client";

export interface LoadedConnection {
  id: number;
  name: string;
  baseUrl: string;
  profile: Profile;
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
    apiKey: c.apiKey,
    apiSecret: decryptText(c.secretCiphertext),
    maxWaitSeconds: c.maxWaitSeconds,
    isEnabled: c.isEnabled,
  };
}

export function clientFor(c: LoadedConnection, opts: { timeoutMs?: number } = {}): UpstreamClient {
  return upstreamClient({ baseUrl: c.baseUrl, profile: c.profile, apiKey: c.apiKey, apiSecret: c.apiSecret }, opts);
}

/** Where an upstream sends us order callbacks and catalogue events (UPSTREAM_CALLBACK_BASE_URL): one endpoint per connection. */
export function upstreamCallbackUrl(connectionId: number): string | null {
  const base = env().UPSTREAM_CALLBACK_BASE_URL?.replace(/\/+$/, "");
  return base ? `${base}/api/upstream-callbacks/${connectionId}` : null;
}
