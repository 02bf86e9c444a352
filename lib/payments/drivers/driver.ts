// Issue 36: one interface for every payment gateway. A driver knows its
// gateway's wire (paths, fields, signing); it knows nothing of our tables.
// The core (lib/payments) decides what a report means: it compares the
// payment number, amount, currency and state with the payment row, and
// credits once. A driver never throws for a well-formed "not paid" report;
// it throws NotifyRefusedError when a notify is not from the gateway (bad,
// missing or upper-cased signature, another merchant id, unreadable body).

export const DRIVER_NAMES = ["epay", "tokenpay", "epusdt", "stripe"] as const;
export type DriverName = (typeof DRIVER_NAMES)[number];

/** A channel as a driver sees it: its settings, secrets decrypted. */
export interface GatewayChannel {
  id: number;
  driver: DriverName;
  /** The gateway's base URL (epay, TokenPay, epusdt); Stripe: unused (see apiBase). */
  gatewayUrl: string | null;
  /** epay: the merchant id (pid). */
  merchantId: string | null;
  /** epay: the merchant key; TokenPay: the API token; epusdt: the API token; Stripe: the secret key. */
  key: string;
  /** Stripe: the webhook signing secret (whsec_…). */
  webhookSecret: string | null;
  /** Stripe: another API host (tests: a local fake), e.g. http://127.0.0.1:12111. */
  apiBase: string | null;
  /** What the gateway is asked to charge in: TokenPay's Currency (USDT_TRC20…), Stripe's currency (cny, usd…); epay and epusdt: the balance's currency. */
  currency: string;
}

/** A payment as a driver sees it. The amount is in the balance's own currency, in fen. */
export interface GatewayPayment {
  paymentNo: string;
  amountCents: bigint;
  /** A short subject shown on the gateway's page. */
  subject: string;
  /** Where the gateway sends its notify: {public_base_url}/api/payments/notify/{channel_id}. */
  notifyUrl: string;
  /** Where the buyer's browser comes back to: {public_base_url}/portal/top-ups/{payment_no}. */
  returnUrl: string;
  expiresAt: Date;
  /** What the gateway answered at create (trade_no, session id…), when it answered one. */
  providerRef: string | null;
}

export interface CreatedAtGateway {
  /** The gateway's own page or session URL the buyer is sent to. */
  payUrl: string;
  /** The gateway's reference when create returns one (Stripe's session id, TokenPay's Id). */
  providerRef?: string;
}

/** What a notify or an active query says about one payment, as the gateway said it. */
export interface GatewayReport {
  /** Our payment number, as the gateway echoes it (out_trade_no, OutOrderId, order_id, client_reference_id). */
  paymentNo: string;
  /** The gateway's own reference of this payment (trade_no, Id, trade_id, session id). */
  providerRef: string;
  /** Only the gateway's one success state is paid. */
  paid: boolean;
  /** The amount in the balance's currency as the gateway sent it ("10.0", "10.00"); the core parses it. */
  amount: string;
  /** The currency the gateway reports (the channel's currency when the gateway reports none). */
  currency: string;
}

/** A notify as it arrived: nothing parsed yet. */
export interface NotifyRequest {
  method: string;
  /** The query string (epay notifies by GET). */
  query: URLSearchParams;
  headers: Headers;
  /** The raw body, at most 64 KiB (Stripe verifies its signature over these exact bytes). */
  rawBody: Buffer;
}

/** The notify is not from the gateway (or not readable): answered 400, nothing changes, the gateway may retry. */
export class NotifyRefusedError extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = "NotifyRefusedError";
  }
}

/** The gateway could not be reached or answered something unusable. */
export class GatewayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GatewayError";
  }
}

export interface PaymentDriver {
  name: DriverName;
  /** Asks the gateway for a payment page. Throws GatewayError. */
  create(channel: GatewayChannel, payment: GatewayPayment): Promise<CreatedAtGateway>;
  /** Checks a notify's signature and merchant and reads its report. Throws NotifyRefusedError. */
  verify(channel: GatewayChannel, request: NotifyRequest): GatewayReport;
  /** Asks the gateway about one payment; null when the gateway does not know it. Absent when the gateway has no query API (epusdt). */
  query?(channel: GatewayChannel, payment: GatewayPayment): Promise<GatewayReport | null>;
  /** The body the gateway expects once a notify is handled ("success", "ok"), sent only after the commit. */
  successReply: string;
}
