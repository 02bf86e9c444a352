// Issue 9 ("Done when"): the repository keeps explaining itself. Three checks
// with maintained tools, so a change that breaks them fails `npm test`:
// no import cycles (madge), no source file over about 200 lines (message
// tables and tests aside), no run of six or more duplicated lines in lib/ and
// scripts/ (jscpd; identical import blocks do not count).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_LINES = 220;

function sourceFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "lib", "app", "scripts", "components", "instrumentation.ts"], { cwd: ROOT, encoding: "utf8" });
  return out.split("\n").filter((f) => /\.tsx?$/.test(f) && fs.existsSync(path.join(ROOT, f)));
}

describe("structure (issue 9)", { timeout: 180_000 }, () => {
  it("has no import cycles (madge)", async () => {
    const result = await madge(["lib", "app", "scripts", "components"].map((d) => path.join(ROOT, d)), {
      baseDir: ROOT,
      fileExtensions: ["ts", "tsx"],
      tsConfig: path.join(ROOT, "tsconfig.json"),
      excludeRegExp: [/lib[\\/]generated[\\/]/, /node_modules/],
    });
    expect(result.circular()).toEqual([]);
  });

  it(`has no source file over ${MAX_LINES} lines, message tables and tests aside`, () => {
    const long = sourceFiles()
      .filter((f) => !/\.(test|spec)\.tsx?$|lib\/i18n\/messages/.test(f))
      .map((f) => ({ f, lines: fs.readFileSync(path.join(ROOT, f), "utf8").split("\n").length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ f, lines }) => `${f} (${lines})`);
    expect(long).toEqual([]);
  });

  it("has no run of six or more duplicated lines in lib/ and scripts/ (jscpd)", () => {
    const report = path.join(ROOT, ".jscpd-report", "jscpd-report.json");
    fs.rmSync(report, { force: true });
    execFileSync(process.execPath, [path.join(ROOT, "node_modules/jscpd/bin/jscpd"), "-c", ".jscpd.json", "lib", "scripts"], { cwd: ROOT, stdio: "ignore" });
    const { duplicates } = JSON.parse(fs.readFileSync(report, "utf8")) as {
      duplicates: { fragment: string; lines: number; firstFile: { name: string; start: number }; secondFile: { name: string; start: number } }[];
    };
    const importLine = /^\s*(import\b|export\s*\{|\}\s*from\s|[\w$]+,?\s*$|type\s+[\w$]+,?\s*$|$)/;
    const real = duplicates
      .filter((d) => !d.fragment.split("\n").every((line) => importLine.test(line)))
      .map((d) => `${d.firstFile.name}:${d.firstFile.start} = ${d.secondFile.name}:${d.secondFile.start} (${d.lines} lines)`);
    expect(real).toEqual([]);
  });
});
