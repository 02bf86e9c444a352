/**
 * The client's address as the server saw it: the first X-Forwarded-For hop
 * (a reverse proxy in front of `next start`), else X-Real-IP. Only used for
 * the audit log, never for access decisions.
 */
export function clientIp(headers: { get(name: string): string | null } | Record<string, string | string[] | undefined>): string | null {
  const read = (name: string): string | null => {
    if (typeof (headers as { get?: unknown }).get === "function") return (headers as { get(n: string): string | null }).get(name);
    const v = (headers as Record<string, string | string[] | undefined>)[name];
    return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
  };
  const forwarded = read("x-forwarded-for")?.split(",")[0]?.trim();
  return (forwarded || read("x-real-ip")?.trim() || null)?.slice(0, 100) ?? null;
}
