import { createOrderEndpoint } from "@/lib/supplier-api/endpoints/orders";

export const dynamic = "force-dynamic";
export const POST = createOrderEndpoint;
