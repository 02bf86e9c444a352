// The shape of one ops CLI command (README "CLI"): its options, how they are
// checked before the database is touched, and what it runs.
import type { parseArgs } from "node:util";
import { z } from "zod";

/** Bad input: exit code 2, nothing was written. */
export class UsageError extends Error {}

export type Options = NonNullable<Parameters<typeof parseArgs>[0]>["options"];
export interface Command<S extends z.ZodType> {
  usage: string;
  options: Options;
  /** Arguments that are not options: a file, or key=value pairs. */
  positionals?: boolean;
  /** Checked before the database is touched: bad input writes nothing. */
  input: (values: Record<string, unknown>, positionals: string[]) => unknown;
  schema: S;
  /** The option a problem at this schema path is about, when it is not the path's first key (a nested input). */
  flagOf?: (path: PropertyKey[], input: Record<string, unknown>) => string | undefined;
  /** false: runs without a database (checks a file). */
  database?: boolean;
  /** true: may create the embedded database without --init (restore into an empty DATA_DIR). */
  createsDatabase?: boolean;
  /** false: the command manages migrations itself (restore). */
  migrate?: boolean;
  run: (input: z.output<S>) => Promise<object>;
}
export const command = <S extends z.ZodType>(c: Command<S>) => c;
