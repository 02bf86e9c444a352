import { z } from "zod";
import { buyerActor } from "@/lib/audit/actor";
import { createApiKey } from "@/lib/credentials/create-api-key";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/keys {name}: a new key for the signed-in buyer; the secret is in this answer only. */
export const POST = portalAction(z.object({ name: z.string().trim().max(100).default("") }), async ({ name }, { buyer }) => {
  const key = await createApiKey({ userId: buyer.userId, name, actor: buyerActor(buyer) });
  return {
    reveal: [
      { label: "API key", value: key.apiKey },
      { label: "API secret", value: key.apiSecret },
    ],
  };
});
