import type { Reporter, TestCase } from "vitest/node";

/**
 * Lists, at the end of a run, every test that failed and then passed on its
 * retry (vitest.config.ts `retry`). A retry keeps one load-only timing
 * miss on a shared 2-core machine from refusing a whole CI run; this list
 * keeps each such miss in sight so it is fixed at its cause like a failure
 * (docs/decisions/0051-a-failed-test-is-tried-once-more-and-listed.md).
 */
export default class FlakyReporter implements Reporter {
  private readonly flaky: string[] = [];

  onTestCaseResult(test: TestCase): void {
    const d = test.diagnostic();
    if (d?.flaky)
      this.flaky.push(`${test.module.moduleId.replace(process.cwd() + "/", "")} > ${test.fullName} (passed on retry ${d.retryCount})`);
  }

  onTestRunEnd(): void {
    if (this.flaky.length === 0) return;
    process.stdout.write(`\nFLAKY: ${this.flaky.length} test(s) passed only on a retry; fix each at its cause:\n`);
    for (const line of this.flaky) process.stdout.write(`  FLAKY ${line}\n`);
  }
}
