import { checkDatabase } from "@/lib/health/check-database";

export const dynamic = "force-dynamic";

export async function GET() {
  const ok = await checkDatabase();
  return Response.json({ ok, database: ok ? "up" : "down" }, { status: ok ? 200 : 503 });
}
