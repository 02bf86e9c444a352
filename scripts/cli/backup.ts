// Backup and restore (issue 10 item 3; README "Backup and restore").
import { z } from "zod";
import { command } from "./command";

const File = z.string().min(1, "must name a file");
// Progress lines only for a person at a terminal: stdout stays one JSON line.
const progress = () => (process.stderr.isTTY ? (line: string) => process.stderr.write(`${line}\n`) : undefined);

export const commands = {
  backup: command({
    usage: "backup --out FILE",
    options: { out: { type: "string" } },
    input: (v) => ({ out: v.out }),
    schema: z.strictObject({ out: File }),
    run: async ({ out }) => (await import("../../lib/backup/create-backup")).createBackup({ out, progress: progress() }),
  }),
  "backup:verify": command({
    usage: "backup:verify --in FILE",
    options: { in: { type: "string" } },
    input: (v) => ({ in: v.in }),
    schema: z.strictObject({ in: File }),
    database: false,
    run: async (i) => (await import("../../lib/backup/verify-backup")).verifyBackup(i.in),
  }),
  restore: command({
    usage: "restore --in FILE [--force]",
    options: { in: { type: "string" }, force: { type: "boolean" } },
    input: (v) => ({ in: v.in, force: v.force ?? false }),
    schema: z.strictObject({ in: File, force: z.boolean() }),
    // The restore recreates the archive's schema version itself, then migrates.
    migrate: false,
    run: async (i) => (await import("../../lib/backup/restore-backup")).restoreBackup({ in: i.in, force: i.force, progress: progress() }),
  }),
};
