import { spawn } from "node:child_process";

/** Where a database command ran (its `_target`). */
export interface CliTarget {
  data_dir?: string;
  database?: string;
  base_url: string | null;
}

export interface CliResult<T = unknown> {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last line of stdout, parsed (the CLI's contract), without `_target`; undefined when it is not JSON. */
  json: T;
  /** The `_target` every database command's result carries (issue 35.5): where it ran, which base URL. */
  target?: CliTarget;
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
      const { json, target } = parseCliOutput(stdout);
      resolve({ code, stdout, stderr, json: json as T, target }); // T: the shape the test expects of its command
    });
  });
}

/** The result line of a CLI run: the command's own answer and, apart, its `_target` (so a test compares each whole). */
export function parseCliOutput(stdout: string): Pick<CliResult, "json" | "target"> {
  let json: unknown;
  try {
    json = JSON.parse(stdout.trimEnd().split("\n").at(-1) ?? "");
  } catch {
    return { json: undefined };
  }
  if (!json || typeof json !== "object") return { json };
  const { _target: target, ...rest } = json as { _target?: CliTarget } & Record<string, unknown>;
  return { json: rest, target };
}
