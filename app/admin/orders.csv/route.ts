import { NextResponse, type NextRequest } from "next/server";
import { adminActor } from "@/lib/audit/actor";
import { currentAdmin } from "@/lib/admin-auth/require-admin";
import { exportOrdersCsv } from "@/lib/admin-views/export-orders-csv";
import { parseOrderFilters } from "@/lib/admin-views/order-filters";
import { log } from "@/lib/log";

export const dynamic = "force-dynamic";

/**
 * GET /admin/orders.csv?<the orders table's filters>: the session is checked
 * here on the server (signed out → sign-in page, nothing is read); the export
 * is audited (by the service), then streamed. Form values are masked, no secret is included.
 */
export async function GET(req: NextRequest) {
  const admin = await currentAdmin();
  if (!admin) return NextResponse.redirect(new URL("/admin/sign-in", req.url), 302);
  const filters = parseOrderFilters(Object.fromEntries(req.nextUrl.searchParams));
  const lines = await exportOrdersCsv(filters, { actor: adminActor(admin) });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await lines.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (err) {
        log.error({ err: err instanceof Error ? err.message : String(err) }, "orders CSV export failed");
        controller.error(err);
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="orders-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
