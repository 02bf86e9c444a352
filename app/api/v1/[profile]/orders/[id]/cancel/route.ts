import { cancelOrderEndpoint } from "@/lib/supplier-api/endpoints/orders";

export const dynamic = "force-dynamic";
export const POST = cancelOrderEndpoint;
