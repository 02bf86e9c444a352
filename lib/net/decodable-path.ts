/**
 * Whether a request target's path (before any "?") percent-decodes. A path
 * with malformed percent-encoding ("%zz", a lone "%") is refused with our own
 * 400 by the production server and the API router before Next's router sees
 * it (issues 8.1, 8.2): Next answers it with a bare 500.
 */
export function isDecodablePath(target: string): boolean {
  if (!target.includes("%")) return true;
  try {
    decodeURIComponent(target.split("?")[0]);
    return true;
  } catch {
    return false;
  }
}
