// Wire error codes and their HTTP status (section 7, D1, D8, D11, D17, D20, D23,
// D24, D30-D32; not_found and method_not_allowed: issue 8.1; request_timeout: issue 22.2). Where section 7 allows two statuses, the decisions pick one;
// the status here is the default and an AppError may carry another (for
// example product_unavailable is 404 on product detail (D11) and 400 on
// order creation (D32)).
export const ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  replay_detected: 409,
  points_disabled: 403,
  product_unavailable: 400,
  product_not_found: 404,
  sku_unavailable: 400,
  insufficient_stock: 400,
  insufficient_balance: 400,
  idempotency_conflict: 409,
  order_not_found: 404,
  cancel_not_allowed: 409,
  // Extension, after-sales (issue 26.3, decision 0043): the order is not
  // delivered, its product has no after-sales, the window has passed or (issue 33.4, decision 0063)
  // the order is refunded in full; the line has a claim already.
  after_sales_closed: 409,
  line_already_claimed: 409,
  // Extension (issue 38, decision 0094): the order's total would be above the max_total the buyer sent.
  max_total_exceeded: 409,
  not_found: 404,
  method_not_allowed: 405,
  request_too_large: 413,
  request_timeout: 408,
  rate_limited: 429,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** D1 error body. */
export interface ErrorBody {
  ok: false;
  error_code: string; // an ErrorCode, or a far side's own
  error_message: string;
}

/** D7: every authentication failure looks the same, with no hint which part failed. */
export const UNAUTHORIZED_MESSAGE = "authentication failed";
