import { openApiDocument } from "@/lib/protocol/openapi/document";

// Issue 11.1: the machine-readable contract, public and unsigned. Generated
// from the zod wire schemas at build time (it depends on no setting).
export const dynamic = "force-static";

export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" } });
}
