import { listClaimsEndpoint, openClaimEndpoint } from "@/lib/supplier-api/endpoints/after-sales";
import { routeMethods } from "@/lib/supplier-api/route-methods";

export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: listClaimsEndpoint, POST: openClaimEndpoint });
