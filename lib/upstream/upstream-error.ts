// Why a call to an upstream gave no usable answer (split from upstream-client.ts,
// which re-exports it; the protocol clients and their shared transport use it).

/**
 * Why a call did not give a usable answer. `kind`:
 * - "network": no HTTP answer (refused, reset, timeout). The request may or
 *   may not have been processed upstream: a create must be repeated as is.
 * - "http": an HTTP error answer; `status` and the D1 `errorCode` tell more.
 * - "invalid": a 2xx answer we could not parse.
 * The message is ours, safe to store, log and show: never a secret, body,
 * signature or any text the upstream chose (issue 8.3); `errorCode` is only
 * ever one of the protocol's own codes.
 */
export class UpstreamError extends Error {
  constructor(
    readonly kind: "network" | "http" | "invalid",
    message: string,
    readonly status: number | null = null,
    readonly errorCode: string | null = null,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}
