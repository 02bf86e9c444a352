import { spawn } from "node:child_process";

export interface CliResult<T = unknown> {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last line of stdout, parsed (the CLI's contract); undefined when it is not JSON. */
  json: T;
}

/** Runs `scripts/cli.ts` as an operator would (a separate process, through tsx); `stdin` is piped in when given. */
export function runCli<T = unknown>(
  args: string[],
  env: Record<string, string | undefined>,
  opts: { stdin?: string } = {},
): Promise<CliResult<T>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
      cwd: process.cwd(),
      env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
      stdio: [opts.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout.trimEnd().split("\n").at(-1) ?? "");
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json: json as T }); // T: the shape the test expects of its command
    });
  });
}
