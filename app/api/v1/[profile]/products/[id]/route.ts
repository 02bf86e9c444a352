import { getProductEndpoint } from "@/lib/supplier-api/endpoints/catalog";

export const dynamic = "force-dynamic";
export const GET = getProductEndpoint;
