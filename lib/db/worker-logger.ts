import { Logger } from "graphile-worker";
import { log } from "../log";

/**
 * graphile-worker logs through pino like the rest of the product, so its
 * lines carry the same redaction. Its "info" lines (a worker connected, a job
 * completed) are routine and go to debug; warnings and errors stay visible.
 */
export const workerLogger = new Logger((scope) => (level, message, meta) => {
  const fields = { component: "jobs", task: scope.taskIdentifier, jobId: scope.jobId, workerId: scope.workerId };
  const error = (meta as { error?: unknown } | undefined)?.error;
  // Only the message of an error: a stack or an object could carry more than we want in logs.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an object shows as "[object Object]" on purpose
  const err = error instanceof Error ? error.message : error === undefined ? undefined : String(error);
  const name: string = level; // an ambient const enum (isolatedModules cannot import it): compare its values
  if (name === "error") log.error({ ...fields, err }, message);
  else if (name === "warning") log.warn({ ...fields, err }, message);
  else log.debug(fields, message);
});
