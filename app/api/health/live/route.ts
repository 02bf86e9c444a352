// Liveness (issue 10 item 7): the process answers. Touches nothing else, so a
// database outage never makes an orchestrator restart healthy app processes.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ ok: true });
}
