// Backup and restore (issue 10 item 3, issue 22 item 4; README "Backup and restore").
import { z } from "zod";
import { CLI_ACTOR } from "../../lib/audit/actor";
import { command } from "./command";

const File = z.string().min(1, "must name a file");
const Files = z.array(File);
// Progress lines only for a person at a terminal: stdout stays one JSON line.
const progress = () => (process.stderr.isTTY ? (line: string) => process.stderr.write(`${line}\n`) : undefined);
// Keys are read from files, never the command line (a process list shows it).
const openingKeys = async (i: { "identity-file": string[]; "passphrase-file"?: string }) =>
  (await import("../../lib/backup/archive-crypto")).readKeyFiles({
    identityFiles: i["identity-file"],
    passphraseFile: i["passphrase-file"],
  });
const keyOptions = { "identity-file": { type: "string", multiple: true }, "passphrase-file": { type: "string" } } as const;
const keyInput = (v: Record<string, unknown>) => ({ "identity-file": v["identity-file"] ?? [], "passphrase-file": v["passphrase-file"] });
const keySchema = { "identity-file": Files, "passphrase-file": File.optional() };

export const commands = {
  backup: command({
    usage: "backup --out FILE [--recipient age1… ...] [--passphrase-file FILE]",
    options: { out: { type: "string" }, recipient: { type: "string", multiple: true }, "passphrase-file": { type: "string" } },
    input: (v) => ({ out: v.out, recipient: v.recipient ?? [], "passphrase-file": v["passphrase-file"] }),
    schema: z.strictObject({
      out: File,
      recipient: z.array(z.string().regex(/^age1[0-9a-z]+$/, "must be an age recipient (age1…)")),
      "passphrase-file": File.optional(),
    }),
    run: async (i) => {
      const { passphrase } = await openingKeys({ "identity-file": [], "passphrase-file": i["passphrase-file"] });
      const to = { recipients: i.recipient, passphrase };
      return (await import("../../lib/backup/create-backup")).createBackup({ out: i.out, to, progress: progress() });
    },
  }),
  "backup:verify": command({
    usage: "backup:verify --in FILE [--identity-file FILE ...] [--passphrase-file FILE]",
    options: { in: { type: "string" }, ...keyOptions },
    input: (v) => ({ in: v.in, ...keyInput(v) }),
    schema: z.strictObject({ in: File, ...keySchema }),
    database: false,
    run: async (i) => (await import("../../lib/backup/verify-backup")).verifyBackup({ in: i.in, keys: await openingKeys(i) }),
  }),
  restore: command({
    usage: "restore --in FILE [--force] [--identity-file FILE ...] [--passphrase-file FILE]",
    options: { in: { type: "string" }, force: { type: "boolean" }, ...keyOptions },
    input: (v) => ({ in: v.in, force: v.force ?? false, ...keyInput(v) }),
    schema: z.strictObject({ in: File, force: z.boolean(), ...keySchema }),
    // The restore recreates the archive's schema version itself, then migrates.
    migrate: false,
    // Restoring into a new DATA_DIR is how a site is moved or recovered: no --init needed.
    createsDatabase: true,
    run: async (i) =>
      (await import("../../lib/backup/restore-backup")).restoreBackup({
        in: i.in,
        force: i.force,
        keys: await openingKeys(i),
        progress: progress(),
        actor: CLI_ACTOR,
      }),
  }),
};
