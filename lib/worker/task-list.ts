import type { JobHelpers, TaskList } from "graphile-worker";
import type { JobName, JobPayloads } from "../jobs/enqueue-job";
import { creditUseJob } from "../alerts/credit-alerts";
import { alertTickJob, ensureAlertTick } from "../alerts/alert-check-tick";
import { dispatchAlertJob } from "../alerts/dispatch-alert";
import { sendAlertsJob } from "../alerts/send-alerts";
import { deliverCallbackJob } from "../callbacks/deliver-callback";
import { requeuePendingCallbacks } from "../callbacks/requeue-pending-callbacks";
import { catalogEventTickJob, ensureCatalogEventTick } from "../catalog-events/catalog-event-tick";
import { deliverCatalogEventJob } from "../catalog-events/deliver-catalog-event";
import { requeuePendingCatalogEvents } from "../catalog-events/requeue-pending-catalog-events";
import { requeueUpstreamPurchases } from "../upstream/requeue-upstream-purchases";
import { runPurchaseJob } from "../upstream/run-purchase";
import { ensureSourceStockTick, sourceStockTickJob } from "../upstream/source-stock-tick";
import { runUpstreamClaimJob } from "../after-sales/claim-upstream";
import { pollOpenUpstreamClaims } from "../after-sales/queue-upstream-claim";
import { resolveClaimWithPurchase } from "../after-sales/resolve-with-purchase";
import { callbackGaveUpJob, upstreamPingJob } from "../alerts/subscribed-alerts";
import { onClaimReplacementBought } from "../upstream/purchase-target";
import { ensurePaymentTick, paymentTickJob } from "../payments/payment-tick";
import { deliverFulfillerEventJob } from "../fulfiller/deliver-fulfiller-event";
import { ensureFulfillerTick, fulfillerTickJob } from "../fulfiller/queue-waiting-events";

type Handler<N extends JobName> = (payload: JobPayloads[N], helpers: JobHelpers) => Promise<void>;

/**
 * The worker's task list: job name → handler. Handlers must be idempotent: a
 * job can run again after a crash between its effect and its completion.
 */
const handlers: { [N in JobName]: Handler<N> } = {
  "callback:deliver": (payload) => deliverCallbackJob(payload),
  "upstream:purchase": (payload) => runPurchaseJob(payload),
  "catalog-event:deliver": (payload) => deliverCatalogEventJob(payload),
  "catalog-event:tick": (_payload, helpers) => catalogEventTickJob(BigInt(helpers.job.id)),
  "alert:dispatch": (payload) => dispatchAlertJob(payload),
  "alert:send": (payload) => sendAlertsJob(payload),
  "alert:tick": (_payload, helpers) => alertTickJob(BigInt(helpers.job.id)),
  "after-sales:upstream": (payload) => runUpstreamClaimJob(payload),
  "upstream:stock-refresh": (_payload, helpers) => sourceStockTickJob(BigInt(helpers.job.id)),
  "payment:tick": (_payload, helpers) => paymentTickJob(BigInt(helpers.job.id)),
  "fulfiller-event:deliver": (payload) => deliverFulfillerEventJob(payload),
  "fulfiller:tick": (_payload, helpers) => fulfillerTickJob(BigInt(helpers.job.id)),
  // Issue 34.1: a domain's side effect in another that imports it, subscribed here (CODE_STYLE.md).
  "alert:callback-gave-up": (payload) => callbackGaveUpJob(payload),
  "alert:upstream-ping": (payload) => upstreamPingJob(payload),
  "alert:credit-use": (payload) => creditUseJob(payload),
  "after-sales:order-changed": async (payload) => void (await pollOpenUpstreamClaims(payload.orderId)),
};

// The one reaction that must share its cause's transaction (a card key it may not put in a payload).
onClaimReplacementBought(resolveClaimWithPurchase);

export const taskList = handlers as unknown as TaskList;

/**
 * Run at worker start and then with every stale-lock sweep: repairs work that
 * has state in our tables but no job (for example a row written by code that
 * did not enqueue). Each must be cheap and idempotent.
 */
export const repairs: { name: string; run: () => Promise<number> }[] = [
  { name: "requeue pending callbacks", run: requeuePendingCallbacks },
  { name: "requeue upstream purchases", run: requeueUpstreamPurchases },
  { name: "requeue pending catalogue events", run: requeuePendingCatalogEvents },
  // Not a repair as such: the catalogue event tick must exist (a first start, a restore).
  { name: "start the catalogue event tick", run: async () => (await ensureCatalogEventTick(), 0) },
  { name: "start the alert checks", run: async () => (await ensureAlertTick(), 0) },
  { name: "start the source stock refresh", run: async () => (await ensureSourceStockTick(), 0) },
  { name: "start the payment queries", run: async () => (await ensurePaymentTick(), 0) },
  { name: "start the fulfiller webhook pushes", run: async () => (await ensureFulfillerTick(), 0) },
];
