/**
 * A start-up failure a person can fix: printed as one line, exit code 1, no
 * stack trace (issue 10.6; lib/ops/startup-errors.ts prints it). Down here so
 * the database layer, which throws it for the embedded server, imports
 * nothing above it.
 */
export class StartupError extends Error {}
