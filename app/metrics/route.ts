import { authorizeScrape } from "@/lib/metrics/authorize-scrape";
import { metrics } from "@/lib/metrics/registry";

export const dynamic = "force-dynamic";

// Prometheus scrape endpoint (issue 10 item 7; README "Observability").
export async function GET(req: Request) {
  if (!authorizeScrape(req)) return new Response("Not Found", { status: 404 });
  const { registry } = metrics();
  return new Response(await registry.metrics(), { headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" } });
}
