import { spawn } from "node:child_process";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last line of stdout, parsed (the CLI's contract), without `_target`; undefined when it is not JSON. */
  json: any;
  /** The `_target` every database command's result carries (issue 35.5): where it ran, which base URL. */
  target?: { data_dir?: string; database?: string; base_url: string | null };
}

/** Runs `scripts/cli.ts` as an operator would (a separate process, through tsx); `stdin` is piped in when given. */
export function runCli(args: string[], env: Record<string, string | undefined>, opts: { stdin?: string } = {}): Promise<CliResult> {
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
      resolve({ code, stdout, stderr, ...parseCliOutput(stdout) });
    });
  });
}

/** The result line of a CLI run: the command's own answer and, apart, its `_target` (so a test compares each whole). */
export function parseCliOutput(stdout: string): Pick<CliResult, "json" | "target"> {
  let json: any;
  try {
    json = JSON.parse(stdout.trimEnd().split("\n").at(-1) ?? "");
  } catch {
    return { json: undefined };
  }
  if (!json || typeof json !== "object") return { json };
  const { _target: target, ...rest } = json;
  return { json: rest, target };
}
