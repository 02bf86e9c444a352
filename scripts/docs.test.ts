// Issue 34.4: the README is for the people who run the site, and every
// document's relative links lead somewhere. Developer material lives in
// CONTRIBUTING.md and docs/; a link to a file or heading that moved fails here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

function markdownFiles(): string[] {
  const files = ["README.md", "CONTRIBUTING.md", "CODE_STYLE.md"];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) files.push(rel);
    }
  };
  walk("docs");
  return files;
}

// Code is not prose: a `[--flag](...)` inside backticks or a fenced block is no link.
function withoutCode(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "``");
}

// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered.
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/^```[\s\S]*?^```/gm, "");
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  const text = withoutCode(fs.readFileSync(path.join(ROOT, file), "utf8"));
  for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1];
    if (/^(https?:|mailto:)/.test(target)) continue;
    const [pathPart, anchor] = target.split("#", 2);
    const resolved = pathPart ? path.normalize(path.join(path.dirname(file), decodeURIComponent(pathPart))) : file;
    if (!fs.existsSync(path.join(ROOT, resolved))) {
      broken.push(`${file}: ${target} (no ${resolved})`);
      continue;
    }
    if (anchor && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) {
      broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  return broken;
}

describe("documents", () => {
  it("issue 34.4: every relative link in README.md, CONTRIBUTING.md, CODE_STYLE.md and docs/ resolves, heading included", () => {
    expect(markdownFiles().flatMap(brokenLinks)).toEqual([]);
  });

  it("issue 34.4: the README is for users: at most 350 lines, no path into lib/, no issue numbers", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(351);
    expect(readme.match(/.*\blib\/.*/g) ?? []).toEqual([]);
    expect(readme.match(/.*\bissues? \d.*/gi) ?? []).toEqual([]);
  });

  it("issue 34.4: CONTRIBUTING.md exists and the README links to it", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("](CONTRIBUTING.md");
  });

  it("issue 34.4: no decision record appends an addendum, revision or amendment; a change is a new record", () => {
    const dir = path.join(ROOT, "docs/decisions");
    const appended = fs
      .readdirSync(dir)
      .filter((f) => /^\d{4}-.*\.md$/.test(f))
      .flatMap((f) =>
        [...fs.readFileSync(path.join(dir, f), "utf8").matchAll(/^##+ (Addendum|Revision|Amendment)\b.*/gm)].map((m) => `${f}: ${m[0]}`),
      );
    expect(appended).toEqual([]);
  });
});
