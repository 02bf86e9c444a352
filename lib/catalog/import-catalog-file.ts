import { importStaged, type ImportCounts } from "./import-catalog";
import { readCatalogStream, type StreamProgress } from "./read-catalog-stream";
import type { Actor } from "../audit/actor";

/**
 * `catalog:import FILE` (issue 13.3): the file is read as a stream, its card
 * keys checked, sealed and COPYed as they pass, and everything lands in one
 * transaction; a bad file anywhere writes nothing, with the messages of
 * readCatalogFile. `progress` gets a line at most once a second.
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
  const counts = await importStaged(
    (stage) => readCatalogStream(path, (skuCode, key) => stage.add(skuCode, key), progress && report),
    actor,
  );
  progress?.(`catalog:import: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return counts;
}
