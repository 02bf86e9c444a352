import { cancelOrderEndpoint } from "@/lib/supplier-api/endpoints/orders";
import { routeMethods } from "@/lib/supplier-api/route-methods";

export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: cancelOrderEndpoint });
