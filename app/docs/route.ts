import { REFERENCE_CSP, referenceHtml } from "@/lib/api-docs/reference-page";

// GET /docs: the interactive API reference (issue 11.2), public.
export function GET(): Response {
  return new Response(referenceHtml(), {
    // Referrer-Policy and HSTS come from our server, as for the console (lib/ops/page-security-headers.ts).
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": REFERENCE_CSP, "X-Content-Type-Options": "nosniff" },
  });
}
