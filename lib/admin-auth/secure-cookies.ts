import { env } from "../config/env";
import { getCachedSettings } from "../settings/get-cached-settings";

/**
 * Cookies get the Secure flag (and next-auth's __Secure-/__Host- names)
 * whenever the site is served over https: the public_base_url setting or
 * NEXTAUTH_URL says so. Either suffices, so an https deployment that left
 * NEXTAUTH_URL at its http default still never sends a session in clear.
 */
export async function cookiesMustBeSecure(): Promise<boolean> {
  if (env().NEXTAUTH_URL?.toLowerCase().startsWith("https://")) return true;
  const settings = await getCachedSettings();
  return settings.publicBaseUrl.toLowerCase().startsWith("https://");
}
