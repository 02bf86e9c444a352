import { deleteCatalogWebhookEndpoint, getCatalogWebhookEndpoint, putCatalogWebhookEndpoint } from "@/lib/supplier-api/endpoints/catalog-webhook";
import { routeMethods } from "@/lib/supplier-api/route-methods";

// Issue 12.2: Profile U only; Profile P sends no callbacks (section 6) and answers 404 not_found here.
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods(
  { GET: getCatalogWebhookEndpoint, PUT: putCatalogWebhookEndpoint, DELETE: deleteCatalogWebhookEndpoint },
  { profiles: ["U"] },
);
