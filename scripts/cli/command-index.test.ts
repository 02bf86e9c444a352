import { describe, expect, it } from "vitest";
import { commandsFor, INDEXED_NAMES } from "./command-index";
import { COMMANDS } from "./parse-command";

// Issue 28.4 (decision 0048): a CLI run loads only its command's module.
describe("the CLI's command index (issue 28.4)", () => {
  it("issue 28.4: lists every command once, in help's order, under the module that defines it", async () => {
    const names = INDEXED_NAMES.flat();
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(Object.keys(COMMANDS));
    for (const group of INDEXED_NAMES) expect(Object.keys(await commandsFor(group[0]))).toEqual(group);
  });

  it("issue 28.4: help and an unknown name load every module, so the usage lists every command", async () => {
    expect(Object.keys(await commandsFor(undefined))).toEqual(Object.keys(COMMANDS));
    expect(Object.keys(await commandsFor("no:such"))).toEqual(Object.keys(COMMANDS));
  });
});
