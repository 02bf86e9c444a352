import type { JobHelpers, TaskList } from "graphile-worker";
import type { JobName, JobPayloads } from "./enqueue-job";
import { deliverCallbackJob } from "../callbacks/deliver-callback";
import { requeuePendingCallbacks } from "../callbacks/requeue-pending-callbacks";
import { requeueUpstreamPurchases } from "../upstream/requeue-upstream-purchases";
import { runPurchaseJob } from "../upstream/run-purchase";

type Handler<N extends JobName> = (payload: JobPayloads[N], helpers: JobHelpers) => Promise<void>;

/**
 * The worker's task list: job name → handler. Handlers must be idempotent: a
 * job can run again after a crash between its effect and its completion.
 */
const handlers: { [N in JobName]: Handler<N> } = {
  "callback:deliver": (payload) => deliverCallbackJob(payload),
  "upstream:purchase": (payload) => runPurchaseJob(payload),
};

export const taskList = handlers as unknown as TaskList;

/**
 * Run at worker start and then with every stale-lock sweep: repairs work that
 * has state in our tables but no job (for example a row written by code that
 * did not enqueue). Each must be cheap and idempotent.
 */
export const repairs: { name: string; run: () => Promise<number> }[] = [
  { name: "requeue pending callbacks", run: requeuePendingCallbacks },
  { name: "requeue upstream purchases", run: requeueUpstreamPurchases },
];
