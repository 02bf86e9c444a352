// `npm run cli`: runs scripts/cli.ts from a build of our own code made with
// esbuild, not through tsx (issue 28.4, decision 0048). Starting tsx and
// compiling each of our TypeScript files in its loader thread is most of a
// command's start; the build is plain JavaScript, split per command, with
// the packages left in node_modules.
//
// The build is kept under node_modules/.cache/cli and made again whenever one
// of the files it was made from changes (their sizes and times are recorded),
// so an edited or pulled checkout never runs stale code. Anything that stops
// the build (a read-only checkout, esbuild missing) falls back to tsx: slower,
// same behaviour. Plain JavaScript, because it runs before anything compiles.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = path.join(ROOT, "node_modules", ".cache", "cli");
const CURRENT = path.join(CACHE, "current.json");
const ENTRY = "scripts/cli.ts";
// Bump when the build options change: a build made with the old ones is then stale.
const RECIPE = 1;
// Files that change the build without being bundled into it.
const ALSO_WATCHED = ["tsconfig.json", "package.json", "scripts/cli-launch.mjs"];
// A run may still be loading chunks from an older build; remove those only after this long.
const KEEP_OLD_MS = 60 * 60 * 1000;

/** The built entry when every recorded input is unchanged, else undefined. */
function currentBuild() {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(CURRENT, "utf8"));
  } catch {
    return undefined;
  }
  if (manifest.recipe !== RECIPE) return undefined;
  for (const [file, signature] of Object.entries(manifest.inputs)) {
    const stat = fs.statSync(path.join(ROOT, file), { throwIfNoEntry: false });
    if (!stat || `${stat.mtimeMs}:${stat.size}` !== signature) return undefined;
  }
  return path.join(CACHE, manifest.dir, "cli.mjs");
}

async function build() {
  const esbuild = await import("esbuild");
  const started = Date.now();
  const dir = `build-${started}-${process.pid}`;
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    // One chunk per lazily imported module: a command loads only its own services.
    splitting: true,
    outdir: path.join(CACHE, dir),
    // .mjs: under node_modules no package.json says "type": "module".
    outExtension: { ".js": ".mjs" },
    sourcemap: "linked",
    metafile: true,
    logLevel: "silent",
  });
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), ...ALSO_WATCHED]) {
    const stat = fs.statSync(path.join(ROOT, file), { throwIfNoEntry: false });
    if (!stat) continue; // esbuild's own virtual inputs
    // Changed while building: recorded so that it never matches, and the next run builds again.
    inputs[file] = stat.mtimeMs >= started ? "changed" : `${stat.mtimeMs}:${stat.size}`;
  }
  // Written aside and renamed: a run starting now reads the old manifest or the new one, whole.
  const tmp = `${CURRENT}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ recipe: RECIPE, dir, inputs }));
  fs.renameSync(tmp, CURRENT);
  for (const old of fs.readdirSync(CACHE)) {
    const at = Number(old.split("-")[1]);
    if (old.startsWith("build-") && old !== dir && started - at > KEEP_OLD_MS)
      fs.rmSync(path.join(CACHE, old), { recursive: true, force: true });
  }
  return path.join(CACHE, dir, "cli.mjs");
}

let entry = currentBuild();
if (!entry) {
  try {
    entry = await build();
  } catch (err) {
    if (process.env.CLI_DEBUG)
      process.stderr.write(`note: running through tsx, the CLI could not be built: ${String(err?.message ?? err).split("\n")[0]}\n`);
  }
}
if (entry) {
  // Stack traces name the TypeScript lines when asked for (CLI_DEBUG); maps cost start time otherwise.
  if (process.env.CLI_DEBUG) process.setSourceMapsEnabled(true);
  await import(pathToFileURL(entry).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(path.join(ROOT, ENTRY)).href);
}
