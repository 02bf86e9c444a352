import type { Reporter, TestCase } from "vitest/node";

/**
 * Lists, at the end of a run, every test that failed and then passed on its
 * retry (vitest.config.ts `retry`), with the failed attempt's error (vitest
 * keeps it on the passed result). A retry keeps one load-only timing
 * miss on a shared 2-core machine from refusing a whole CI run; this list
 * keeps each such miss in sight so it is fixed at its cause like a failure
 * (docs/decisions/0051-a-failed-test-is-tried-once-more-and-listed.md).
 */
export default class FlakyReporter implements Reporter {
  private readonly flaky: string[] = [];

  onTestCaseResult(test: TestCase): void {
    const d = test.diagnostic();
    if (!d?.flaky) return;
    const where = `${test.module.moduleId.replace(process.cwd() + "/", "")} > ${test.fullName} (passed on retry ${d.retryCount})`;
    const first = test.result().errors?.[0];
    const line = first?.stacks?.find((s) => !s.file.includes("node_modules"));
    const why = first
      ? `\n      first attempt: ${first.message.slice(0, 400)}${line ? ` (${line.file.replace(process.cwd() + "/", "")}:${line.line})` : ""}`
      : "";
    this.flaky.push(where + why);
  }

  onTestRunEnd(): void {
    if (this.flaky.length === 0) return;
    process.stdout.write(`\nFLAKY: ${this.flaky.length} test(s) passed only on a retry; fix each at its cause:\n`);
    for (const line of this.flaky) process.stdout.write(`  FLAKY ${line}\n`);
  }
}
