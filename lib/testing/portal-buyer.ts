import { CLI_ACTOR } from "../audit/actor";
import { inviteBuyer } from "../users/invite-buyer";
import { setPasswordWithLink } from "../users/set-password-with-link";
import type { AppServer } from "./app-server";
import { makeBuyer } from "./factories";

const PASSWORD = "portal buyer password 1";

/** A buyer (API key, no points) with a portal password set through its invitation, signed in to `server`: its session cookie. */
export async function signedInBuyer(server: AppServer) {
  const b = await makeBuyer({ pointsCents: 0n });
  const invite = await inviteBuyer({ email: b.user.email, actor: CLI_ACTOR });
  await setPasswordWithLink({ token: invite.inviteUrl.split("/").at(-1) ?? "", password: PASSWORD });
  const res = await fetch(server.baseUrl + "/portal/session", {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
    body: new URLSearchParams({ email: b.user.email, password: PASSWORD }).toString(),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("cardkey-portal-session="));
  if (!cookie) throw new Error(`portal sign-in failed: ${res.status}`);
  return { ...b, cookie, password: PASSWORD };
}

/** POST /portal/api/payments as that buyer: the status and the JSON answer. */
export async function startPayment(server: AppServer, cookie: string, body: object) {
  const res = await fetch(server.baseUrl + "/portal/api/payments", {
    method: "POST",
    headers: { cookie, "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    json: (await res.json()) as { ok: boolean; payment_no: string; pay_url: string; state: string; code?: string },
  };
}
