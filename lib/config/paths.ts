import path from "node:path";
import { env } from "./env";

/** Where the embedded database and generated secrets live (uploads moved into the database, decision 0044). */
export function dataDir(): string {
  // turbopackIgnore: a runtime directory, not a build input (otherwise the
  // bundler traces the whole project into the server output).
  return path.resolve(/*turbopackIgnore: true*/ env().DATA_DIR);
}
