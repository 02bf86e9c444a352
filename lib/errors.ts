import { ERROR_STATUS, type ErrorCode } from "./protocol/errors";

/**
 * The one error type of the product. `code` is the wire error_code of spec
 * section 7 (or an internal one); `publicMessage` is safe to show a client:
 * it never contains secrets, signatures, card keys or form values (D1).
 * Make one with `appError(code, message)`: the status comes from the code.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly publicMessage: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${code}: ${publicMessage}`);
    this.name = "AppError";
  }
}

/** Codes that never reach the supplier API (console, CLI, jobs), with their status. */
const INTERNAL_ERROR_STATUS = {
  conflict: 409,
  user_not_found: 404,
  key_disabled: 409,
  callback_not_found: 404,
  callback_pending: 409,
  order_not_in_review: 409,
  order_final: 409,
  invalid_transition: 409,
  no_upstream_purchase: 409,
  upstream_unreachable: 502,
  claim_not_found: 404,
  claim_resolved: 409,
  claim_replacing: 409,
  // Issue 33.4: the line used up its replacements within the window; a claim on it is refunded or rejected.
  replace_limit_reached: 409,
  refund_exceeds_paid: 409,
  // Issue 33.3: a self-registered buyer the administrators have not approved yet.
  account_pending: 403,
  // Issue 36: payments through gateways.
  payment_not_found: 404,
  channel_not_found: 404,
  channel_disabled: 409,
  payment_final: 409,
  // Issue 39: the fulfiller API. Another token holds the order's lease; this token holds no live lease on it.
  order_leased: 409,
  lease_required: 409,
} as const;

export type AppErrorCode = ErrorCode | keyof typeof INTERNAL_ERROR_STATUS;
const STATUS: Record<AppErrorCode, number> = { ...ERROR_STATUS, ...INTERNAL_ERROR_STATUS };

/**
 * An error from its code alone; the status is the code's row in the tables
 * above. `status` overrides it only where a decision says so (D11: a missing
 * product is 404 on detail, D32: 400 on order creation).
 */
export function appError(code: AppErrorCode, message: string, opts: { status?: number; headers?: Record<string, string> } = {}): AppError {
  return new AppError(code, opts.status ?? STATUS[code], message, opts.headers);
}
