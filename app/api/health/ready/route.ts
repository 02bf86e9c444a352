import { checkReady } from "@/lib/health/check-ready";

export const dynamic = "force-dynamic";

export async function GET() {
  const ready = await checkReady();
  return Response.json(ready, { status: ready.ok ? 200 : 503 });
}
