import { notFoundMethods } from "@/lib/supplier-api/route-methods";

// Issue 8.1: any other path under the four prefixes is a D1 404 not_found.
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundMethods();
