import { UsageError } from "../../scripts/cli/command";
import { parseCommand } from "../../scripts/cli/parse-command";

/** The message a command line is refused with before the database (a UsageError); throws when it is accepted. */
export function usageError(argv: string[]): string {
  try {
    parseCommand(argv);
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error(`accepted: ${argv.join(" ")}`);
}
