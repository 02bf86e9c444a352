import { formatAmount, CURRENCY } from "../../protocol/amount";
import { PROTOCOL_VERSION, PROVIDER_TYPE } from "../../protocol/headers";
import { getCachedSettings } from "../../settings/get-cached-settings";
import { getAccount } from "../../users/get-account";
import { ENDPOINTS } from "../../protocol/endpoints";
import { defineEndpoint } from "../define-endpoint";

/** Section 2.1 / 4.1, D4, D16. GET and POST (one handler for both entries, lib/supplier-api/endpoints.ts); a POST body is ignored. Balance is read live. */
export const pingEndpoint = defineEndpoint({
  ...ENDPOINTS.ping,
  handler: async (ctx) => {
    const [settings, account] = await Promise.all([getCachedSettings(), getAccount(ctx.credential.userId)]);
    return {
      ok: true,
      site_name: settings.siteName,
      provider_type: PROVIDER_TYPE,
      protocol_version: PROTOCOL_VERSION,
      instance_id: settings.instanceId,
      user_id: account.userId,
      balance: formatAmount(account.balanceCents),
      credit_limit: formatAmount(account.creditLimitCents), // issue 38 extension
      currency: CURRENCY,
      member_level: account.memberLevel,
    };
  },
});
