import { decryptText } from "../crypto/secret-box";
import type { GatewayChannel } from "./drivers/driver";

/** A channel row as its driver needs it: secrets unsealed, only in memory, only for the call. */
export function gatewayChannel(row: {
  id: number;
  driver: GatewayChannel["driver"];
  gatewayUrl: string | null;
  merchantId: string | null;
  keySealed: Uint8Array;
  webhookSecretSealed: Uint8Array | null;
  apiBase: string | null;
  currency: string;
}): GatewayChannel {
  return {
    id: row.id,
    driver: row.driver,
    gatewayUrl: row.gatewayUrl,
    merchantId: row.merchantId,
    key: decryptText(row.keySealed),
    webhookSecret: row.webhookSecretSealed ? decryptText(row.webhookSecretSealed) : null,
    apiBase: row.apiBase,
    currency: row.currency,
  };
}
