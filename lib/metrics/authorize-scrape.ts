import { env } from "../config/env";
import crypto from "node:crypto";

/**
 * /metrics answers only when METRICS_TOKEN is set and the request carries it
 * as a bearer token; otherwise it does not exist (404), so an unconfigured
 * server reveals nothing, not even that metrics could be enabled.
 */
export function authorizeScrape(req: Request, token = env().METRICS_TOKEN): boolean {
  if (!token) return false;
  const header = req.headers.get("authorization") ?? "";
  const match = /^Bearer (.+)$/i.exec(header);
  if (!match) return false;
  // Digests first: timingSafeEqual needs equal lengths, and comparing digests leaks no length.
  const digest = (s: string) => crypto.createHash("sha256").update(s).digest();
  return crypto.timingSafeEqual(digest(match[1]), digest(token));
}
