import net from "node:net";
import { restrictedReason } from "../../callbacks/address-policy";
import { allowPrivateNetworks } from "../../callbacks/callback-config";

// Issue 33.2: the Telegram API base carries the bot token in every request's
// path, so it is https, the way to api.telegram.org or a self-hosted Bot API
// server. The one exception is a Bot API on a closed network while
// CALLBACK_ALLOW_PRIVATE_NETWORKS=true (the callbacks' and webhooks' D29
// switch, which the tests' loopback fake runs under): plain http to an IP
// address the switch opens (loopback, private), never to a name or a public
// address. The address itself is judged by D29 when the channel is added and
// again at every connection (telegram.ts), as callbacks and webhooks are.

/** Why `apiBase` may not be used as a Bot API base, or null. Checked when a channel is added and before every call. */
export function telegramApiBaseProblem(apiBase: string): string | null {
  let u: URL;
  try {
    u = new URL(apiBase);
  } catch {
    return "api base must be an https URL";
  }
  if (u.username || u.password || u.search || u.hash) return "api base must be an https URL without user, query or fragment";
  if (u.protocol === "https:") return null;
  if (u.protocol !== "http:") return "api base must be an https URL";
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1");
  const openedBySwitch = net.isIP(host) && restrictedReason(host, false) !== null && restrictedReason(host) === null;
  if (allowPrivateNetworks() && openedBySwitch) return null;
  return "api base must use https (http only to a private address with CALLBACK_ALLOW_PRIVATE_NETWORKS=true)";
}
