import { log } from "../log";

/**
 * Issue 10.4: SIGTERM and SIGINT start one graceful stop; a signal that comes
 * a second or more after the first exits at once (code 1). Signals within
 * that second are the same request arriving twice: Ctrl-C reaches every
 * process of the terminal's group, and `npm start` (and tsx) forward it too.
 */
export function onStopSignals(program: string, stop: () => Promise<void>, repeatAfterMs = 1000): void {
  let firstAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!firstAt) {
      firstAt = Date.now();
      log.info({ signal }, `${program}: stopping (send the signal again to stop at once)`);
      stop().catch((err) => {
        log.error({ err: String(err instanceof Error ? err.message : err) }, `${program}: error while stopping`);
        process.exit(1);
      });
    } else if (Date.now() - firstAt >= repeatAfterMs) {
      process.stderr.write(`${program}: second ${signal}: exiting at once\n`);
      process.exit(1);
    }
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
