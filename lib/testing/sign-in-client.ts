import http from "node:http";

// Drives next-auth's real HTTP flow from a chosen loopback address: the socket
// is bound to `from` (127.0.0.x) AND X-Forwarded-For names the same address,
// so a test holds whether the server takes the client address from the socket
// or (today) from the header.

export interface Reply {
  status: number;
  setCookies: string[];
  location: string | null;
  body: string;
}

export function send(
  baseUrl: string,
  path: string,
  opts: { method?: string; from?: string; cookie?: string; form?: Record<string, string> } = {},
): Promise<Reply> {
  const url = new URL(path, baseUrl);
  const body = opts.form ? new URLSearchParams(opts.form).toString() : undefined;
  const from = opts.from ?? "127.0.0.1";
  const headers: Record<string, string> = { "x-forwarded-for": from };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (body !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: opts.method ?? "GET",
        headers,
        localAddress: from,
        agent: false,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          const sc = res.headers["set-cookie"] ?? [];
          resolve({
            status: res.statusCode ?? 0,
            setCookies: sc,
            location: res.headers.location ?? null,
            body: text,
          });
        });
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** name=value pairs of Set-Cookie headers, cleared cookies left out. */
export function cookiePairs(setCookies: string[]): string[] {
  return setCookies.map((c) => c.split(";")[0]).filter((p) => !p.endsWith("="));
}

export const findCookie = (setCookies: string[], name: string) => cookiePairs(setCookies).find((p) => p.split("=")[0].endsWith(name));

export interface SignInReply {
  error: string | null;
  /** "name=value" of the session cookie when signed in. */
  session?: string;
  /** "name=value" of the device cookie when issued. */
  device?: string;
  setCookies: string[];
  raw: Reply;
}

/** CSRF cookie + token, then the credentials callback, as the sign-in page does. */
export async function signIn(
  baseUrl: string,
  a: { email: string; password: string; code?: string; from?: string; cookie?: string },
): Promise<SignInReply> {
  const csrf = await send(baseUrl, "/api/auth/csrf", { from: a.from });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const cookie = [...cookiePairs(csrf.setCookies), ...(a.cookie ? [a.cookie] : [])].join("; ");
  const raw = await send(baseUrl, "/api/auth/callback/credentials", {
    method: "POST",
    from: a.from,
    cookie,
    form: { csrfToken, email: a.email, password: a.password, code: a.code ?? "", json: "true" },
  });
  const { url } = JSON.parse(raw.body) as { url: string };
  return {
    error: new URL(url, baseUrl).searchParams.get("error"),
    session: findCookie(raw.setCookies, "next-auth.session-token"),
    device: findCookie(raw.setCookies, "cardkey-admin-device"),
    setCookies: raw.setCookies,
    raw,
  };
}

/** next-auth's sign-out (POST with the CSRF token), as the console's button does. */
export async function signOut(baseUrl: string, session: string, from?: string): Promise<Reply> {
  const csrf = await send(baseUrl, "/api/auth/csrf", { from, cookie: session });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const cookie = [...cookiePairs(csrf.setCookies), session].join("; ");
  return send(baseUrl, "/api/auth/signout", { method: "POST", from, cookie, form: { csrfToken, json: "true" } });
}

/** True when `session` still opens an admin page (200), false when sent to sign-in. */
export async function sessionWorks(baseUrl: string, session: string, from?: string): Promise<boolean> {
  const res = await send(baseUrl, "/admin/settings", { from, cookie: session });
  if (res.status === 200) return true;
  if ([303, 307, 308].includes(res.status) && /\/admin\/sign-in/.test(res.location ?? "")) return false;
  throw new Error(`unexpected answer ${res.status} ${res.location}`);
}
