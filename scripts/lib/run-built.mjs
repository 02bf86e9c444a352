// Runs one of our TypeScript entry points from a build of our own code made
// with esbuild, not through tsx: `npm run cli` (issue 28.4, decision 0048) and
// the HTTP server `npm start` runs (issue 40, decision 0106). Starting tsx and
// compiling each of our TypeScript files in its loader thread is most of a
// command's start, and that thread is a second JavaScript heap the server
// would carry all its life; the build is plain JavaScript with the packages
// left in node_modules.
//
// A build is kept under node_modules/.cache/<name> and made again whenever one
// of the files it was made from changes (their sizes and times are recorded),
// so an edited or pulled checkout never runs stale code. Anything that stops
// the build (a read-only checkout, esbuild missing) falls back to tsx: slower,
// same behaviour. Plain JavaScript, because it runs before anything compiles.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// Bump when the build options change: a build made with the old ones is then stale.
const RECIPE = 2;
// Files that change the build without being bundled into it.
const ALSO_WATCHED = ["tsconfig.json", "package.json", "scripts/lib/run-built.mjs"];
// A run may still be loading chunks from an older build; remove those only after this long.
const KEEP_OLD_MS = 60 * 60 * 1000;

/** The built entry when it was made with these options and every recorded input is unchanged, else undefined. */
function currentBuild(cache, out, splitting) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(cache, "current.json"), "utf8"));
  } catch {
    return undefined;
  }
  if (manifest.recipe !== RECIPE || manifest.splitting !== splitting) return undefined;
  for (const [file, signature] of Object.entries(manifest.inputs)) {
    const stat = fs.statSync(path.join(ROOT, file), { throwIfNoEntry: false });
    if (!stat || `${stat.mtimeMs}:${stat.size}` !== signature) return undefined;
  }
  return path.join(cache, manifest.dir, out);
}

async function build({ entry, cache, out, splitting }) {
  const esbuild = await import("esbuild");
  const started = Date.now();
  const dir = `build-${started}-${process.pid}`;
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    splitting,
    outdir: path.join(cache, dir),
    // .mjs: under node_modules no package.json says "type": "module".
    outExtension: { ".js": ".mjs" },
    sourcemap: "linked",
    metafile: true,
    logLevel: "silent",
  });
  // Its service process would otherwise live as long as the server.
  await esbuild.stop();
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), ...ALSO_WATCHED]) {
    const stat = fs.statSync(path.join(ROOT, file), { throwIfNoEntry: false });
    if (!stat) continue; // esbuild's own virtual inputs
    // Changed while building: recorded so that it never matches, and the next run builds again.
    inputs[file] = stat.mtimeMs >= started ? "changed" : `${stat.mtimeMs}:${stat.size}`;
  }
  // Written aside and renamed: a run starting now reads the old manifest or the new one, whole.
  const current = path.join(cache, "current.json");
  const tmp = `${current}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ recipe: RECIPE, splitting, dir, inputs }));
  fs.renameSync(tmp, current);
  for (const old of fs.readdirSync(cache)) {
    const at = Number(old.split("-")[1]);
    if (old.startsWith("build-") && old !== dir && started - at > KEEP_OLD_MS)
      fs.rmSync(path.join(cache, old), { recursive: true, force: true });
  }
  return path.join(cache, dir, out);
}

/**
 * Imports `entry`'s build (made first when missing or stale), or `entry`
 * through tsx when it cannot be built. `splitting`: one chunk per lazily
 * imported module (a CLI command loads only its own services); without it
 * everything is in one file, loaded at start, so a long-running process never
 * loads a chunk from a build that a later one has removed.
 */
export async function runBuilt({ entry, name, splitting, debug }) {
  const cache = path.join(ROOT, "node_modules", ".cache", name);
  const out = `${path.basename(entry, path.extname(entry))}.mjs`;
  let built = currentBuild(cache, out, splitting);
  if (!built) {
    try {
      built = await build({ entry, cache, out, splitting });
    } catch (err) {
      if (debug)
        process.stderr.write(`note: running through tsx, ${entry} could not be built: ${String(err?.message ?? err).split("\n")[0]}\n`);
    }
  }
  if (!built) {
    const { register } = await import("tsx/esm/api");
    register(); // turns source maps on: set below like the build's
  }
  // Stack traces name the TypeScript lines when asked for; maps cost start time and
  // memory otherwise (a server would keep the map of every chunk Next loads, decision 0106).
  process.setSourceMapsEnabled(Boolean(debug));
  await import(pathToFileURL(built ?? path.join(ROOT, entry)).href);
}
