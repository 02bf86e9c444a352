import { env } from "../config/env";
import { log } from "../log";

// D28 retry schedule: about 30 s, 1 m, 2 m, 5 m, 10 m, 30 m, 1 h, 2 h, 4 h, 8 h
// after the first attempt, i.e. 11 attempts over about 16 hours.
const DEFAULT_SCHEDULE_SECONDS = [30, 60, 120, 300, 600, 1800, 3600, 7200, 14400, 28800];

/**
 * Delays before each retry, in milliseconds. CALLBACK_RETRY_SCHEDULE
 * (comma-separated seconds, decimals allowed, e.g. "0.2,0.2,0.2") replaces
 * it: for tests, or an operator who wants a shorter or longer tail.
 */
export function retryScheduleMs(): number[] {
  return (env().CALLBACK_RETRY_SCHEDULE ?? DEFAULT_SCHEDULE_SECONDS).map((s) => Math.round(s * 1000));
}

/** ±20 % jitter, so many callbacks failing together do not retry in lock-step. */
export function withJitter(ms: number): number {
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}

/** D28: a 2xx within 10 s. CALLBACK_TIMEOUT_MS shortens it for tests. */
export function callbackTimeoutMs(): number {
  return env().CALLBACK_TIMEOUT_MS;
}

let warned = false;
/**
 * D29 switch: CALLBACK_ALLOW_PRIVATE_NETWORKS=true lets callbacks reach
 * loopback and private addresses (tests, closed networks). Off by default;
 * logged at warn level the first time it is seen on, in every process.
 */
export function allowPrivateNetworks(): boolean {
  const on = env().CALLBACK_ALLOW_PRIVATE_NETWORKS;
  if (on && !warned) {
    warned = true;
    log.warn(
      { component: "callbacks" },
      "CALLBACK_ALLOW_PRIVATE_NETWORKS=true: callbacks may reach loopback and private-network addresses. Use only for tests and closed networks.",
    );
  }
  return on;
}
