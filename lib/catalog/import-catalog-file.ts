import crypto from "node:crypto";
import { appError } from "../errors";
import { importStaged, type ImportCounts } from "./import-catalog";
import { readCatalogStream, type StreamProgress } from "./read-catalog-stream";
import type { CardKeyStage } from "./card-key-stage";
import type { Actor } from "../audit/actor";

/**
 * `catalog:import FILE` (issue 13.3): the file is read as a stream, its card
 * keys checked, sealed and COPYed as they pass, and everything lands in one
 * transaction; a bad file anywhere writes nothing, with the messages of
 * readCatalogFile. `progress` gets a line at most once a second.
 *
 * Decision 0096: keys of SKUs the file creates are read a second time, once
 * the catalogue rows exist, so that PostgreSQL moves each chunk into
 * "CardKey" while the CLI seals the next (a first import's million keys were
 * all moved at the end, with the CLI idle). The second read must see the
 * same bytes as the first (SHA-256 of each), else nothing is imported.
 */
export async function importCatalogFile({
  path,
  progress,
  actor,
}: {
  path: string;
  progress?: (line: string) => void;
  actor: Actor;
}): Promise<ImportCounts> {
  const started = Date.now();
  let shown = started;
  const report = ({ bytes, keys }: StreamProgress) => {
    const now = Date.now();
    if (now - shown < 1000) return;
    shown = now;
    const seconds = (now - started) / 1000;
    progress?.(`catalog:import: ${(bytes / 1e6).toFixed(1)} MB read, ${keys} card keys, ${Math.round(keys / seconds)} keys/s`);
  };
  const read = async (stage: CardKeyStage, only?: Set<string>) => {
    const hash = crypto.createHash("sha256");
    const onKey = (skuCode: string, key: string) => (only && !only.has(skuCode) ? undefined : stage.add(skuCode, key));
    const file = await readCatalogStream(path, onKey, progress && report, hash);
    return { file, digest: hash.digest("hex") };
  };
  let first = "";
  const counts = await importStaged(
    async (stage) => {
      const { file, digest } = await read(stage);
      first = digest;
      return file;
    },
    actor,
    async (stage, skuCodes) => {
      if ((await read(stage, skuCodes)).digest !== first)
        throw appError("conflict", "the catalogue file changed while it was imported; nothing was imported, run it again");
    },
  );
  progress?.(`catalog:import: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return counts;
}
