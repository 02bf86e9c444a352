import { pingEndpoint } from "@/lib/supplier-api/endpoints/ping";

export const dynamic = "force-dynamic";
export const GET = pingEndpoint;
export const POST = pingEndpoint;
