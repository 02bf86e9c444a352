import { listProductsEndpoint } from "@/lib/supplier-api/endpoints/catalog";

export const dynamic = "force-dynamic";
export const GET = listProductsEndpoint;
