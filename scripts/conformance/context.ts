import { signedHeaders } from "../../lib/protocol/client";
import { HEADER_REQUEST_ID } from "../../lib/protocol/headers";
import { responseChecker } from "../../lib/protocol/openapi/check-response";
import { PROFILE_PREFIXES, type Profile } from "../../lib/protocol/profiles";
import type { AnyAnswer } from "./answers";

// What every check of the conformance kit shares: the target, signed and
// deliberately mis-signed requests, and the shape check of every response
// against our OpenAPI document.

export interface ConformanceOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  profile: Profile;
  /** Place orders (spends points): requires skuId. */
  allowOrders?: boolean;
  skuId?: number;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface Reply<T = AnyAnswer> {
  status: number;
  headers: Headers;
  text: string;
  /** The body read as the answer the check expects (send<T>; not validated, see answers.ts); undefined when it is not JSON. */
  json: T | undefined;
}

/** A reply expectOk passed: its body is JSON. */
export type OkReply<T> = Reply<T> & { json: T };

export interface SendOptions {
  method?: "GET" | "POST" | "PUT";
  /** After the prefix, may carry a query string. */
  path: string;
  body?: string;
  /** Another prefix than the primary one of the profile. */
  prefix?: string;
  timestamp?: number | string;
  secret?: string;
  apiKey?: string;
  /** Sign this path / body instead of what is sent. */
  signPath?: string;
  signBody?: string;
  mapSignature?: (s: string) => string;
  /** Drop (undefined) or replace headers. */
  headers?: Record<string, string | undefined>;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export class Context {
  readonly prefix: string;
  readonly altPrefix: string;
  private readonly checker = responseChecker();
  private readonly lastTs = new Map<string, number>();
  private latestTs = 0;
  /** Shape problems of every response received, by "METHOD path status". */
  readonly shapeProblems: string[] = [];
  readonly missingRequestId: string[] = [];
  responses = 0;

  constructor(readonly opts: ConformanceOptions) {
    [this.prefix, this.altPrefix] = PROFILE_PREFIXES[opts.profile];
  }

  /**
   * A fresh timestamp per (method, path) and second, as Profile P's replay
   * rule (D8) requires. Repeats borrow seconds ahead of the clock, so the run
   * ends with settle().
   */
  timestamp(method: string, path: string): number {
    const key = `${method} ${path}`;
    const ts = Math.max(nowSeconds(), (this.lastTs.get(key) ?? 0) + 1);
    this.lastTs.set(key, ts);
    this.latestTs = Math.max(this.latestTs, ts);
    return ts;
  }

  /**
   * Waits until the clock has passed every second this run signed with, so
   * that a run started next (by this process or another) cannot sign the same
   * request with a borrowed second and be refused as a replay (D8).
   */
  async settle(): Promise<void> {
    while (nowSeconds() <= this.latestTs) await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
  }

  async send<T = AnyAnswer>(o: SendOptions): Promise<Reply<T>> {
    const method = o.method ?? "GET";
    const fullPath = (o.prefix ?? this.prefix) + o.path;
    const pathOnly = fullPath.split("?")[0];
    const body = o.body ?? "";
    const ts = o.timestamp ?? this.timestamp(method, pathOnly);
    const creds = { apiKey: o.apiKey ?? this.opts.apiKey, apiSecret: o.secret ?? this.opts.apiSecret };
    const signed = signedHeaders(creds, method, o.signPath ?? pathOnly, o.signBody ?? body, Number(ts));
    if (o.timestamp !== undefined) signed["Svc-Timestamp"] = String(o.timestamp);
    if (o.mapSignature) signed["Svc-Signature"] = o.mapSignature(signed["Svc-Signature"]);
    const merged: Record<string, string | undefined> = { ...signed, ...o.headers };
    const headers = Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
    const url = this.opts.baseUrl.replace(/\/+$/, "") + fullPath;
    const res = await fetch(url, {
      method,
      headers,
      body: method === "GET" ? undefined : body,
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    this.responses++;
    if (!res.headers.get(HEADER_REQUEST_ID)) this.missingRequestId.push(`${method} ${pathOnly} → ${res.status}`);
    const r = this.checker.check(method, pathOnly, res.status, res.headers.get("content-type"), text);
    this.shapeProblems.push(...r.problems);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json: json as T | undefined };
  }
}

/** An assertion inside a check: throws with a one-line reason. */
export function expectThat(cond: unknown, reason: string): asserts cond {
  if (!cond) throw new Error(reason);
}

/** The D1 error answer with this status and code. */
export function expectError(r: Reply<unknown>, status: number, code: string): void {
  const json = r.json as Partial<AnyAnswer> | null | undefined; // any JSON: read with care
  const got = json && typeof json === "object" ? `${r.status} ${JSON.stringify(json.error_code)}` : `${r.status} (not JSON)`;
  expectThat(
    r.status === status && json?.ok === false && json?.error_code === code && typeof json?.error_message === "string",
    `expected ${status} ${code}, got ${got}`,
  );
}

export function expectOk<T>(r: Reply<T>, what: string): asserts r is OkReply<T> {
  const json = r.json as Partial<AnyAnswer> | null | undefined;
  expectThat(r.status === 200 && json?.ok === true, `${what}: expected 200 with ok: true, got ${r.status} ${r.text.slice(0, 120)}`);
}
