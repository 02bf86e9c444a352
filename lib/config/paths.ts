import path from "node:path";

/** Where the embedded database, generated secrets and uploads live. */
export function dataDir(): string {
  return path.resolve(process.env.DATA_DIR ?? ".data");
}
