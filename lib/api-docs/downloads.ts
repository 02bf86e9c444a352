import fs from "node:fs/promises";
import path from "node:path";

// Issue 35.1: what /docs and the portal's Integration page point a buyer to
// is served by this server, not named as a path in our repository: the
// protocol guide and the decisions as text, the typed client and the
// conformance kit as single-file ES modules for Node 20+ (bundled from
// lib/protocol/client.ts and scripts/conformance/cli.ts with esbuild, zod
// inside, on the first request; every instance makes the same bytes).
// Decision 0087.

interface Download {
  /** A text file of the repository, served as it is. */
  file?: string;
  /** An entry point bundled into one ES module. */
  entry?: string;
  type: string;
  /** The first line of a bundle (the kit runs as `node supplier-conformance.mjs …`). */
  banner?: string;
}

export const DOWNLOADS: Record<string, Download> = {
  "protocol.md": { file: "docs/protocol.md", type: "text/markdown; charset=utf-8" },
  "decisions.md": { file: "docs/spec/decisions.md", type: "text/markdown; charset=utf-8" },
  "supplier-client.mjs": {
    entry: "lib/protocol/client.ts",
    type: "text/javascript; charset=utf-8",
    banner: "// The supplier API's typed client (createSupplierClient, signedFetch, verifyCallback). Node 20+.",
  },
  "supplier-conformance.mjs": {
    entry: "scripts/conformance/cli.ts",
    type: "text/javascript; charset=utf-8",
    banner:
      "#!/usr/bin/env node\n// The supplier API's conformance kit: node supplier-conformance.mjs --base-url URL --api-key K --api-secret-file F --profile U|P",
  },
};

/** Where each download is linked from: /docs/files/<name>. */
export const downloadPath = (name: keyof typeof DOWNLOADS) => `/docs/files/${name}`;

const root = () => /*turbopackIgnore: true*/ process.cwd();
const made = new Map<string, Promise<Uint8Array>>();

/** The bytes and type of one download by name, or undefined for any other name. */
export async function readDownload(name: string): Promise<{ body: Uint8Array; type: string } | undefined> {
  const d = Object.hasOwn(DOWNLOADS, name) ? DOWNLOADS[name] : undefined;
  if (!d) return undefined;
  let body = made.get(name);
  if (!body) {
    body = d.file ? fs.readFile(path.join(root(), d.file)) : bundle(d);
    made.set(name, body);
    body.catch(() => made.delete(name)); // a failed bundle is tried again on the next request
  }
  return { body: await body, type: d.type };
}

async function bundle(d: Download): Promise<Uint8Array> {
  const { build } = await import("esbuild");
  const out = await build({
    entryPoints: [path.join(root(), d.entry!)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "silent",
    legalComments: "inline",
    banner: d.banner ? { js: d.banner } : undefined,
  });
  return out.outputFiles[0].contents;
}
