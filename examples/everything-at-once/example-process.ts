// Runs one program of the example (gateway.ts, worker.ts) as a child process with tsx and reads
// the lines of JSON it prints for the test: its `ready` line and, after SIGTERM, its `report`.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type ProcessReport, REPORT_MARK } from "./process-report.js";

/** How a child process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running program of the example. */
export interface ExampleProcess {
  /** The value of its `ready` line; rejects when it exits first. */
  readonly ready: Promise<unknown>;
  /** Its report, printed once it has stopped; rejects when it exits without one. */
  readonly report: Promise<ProcessReport>;
  readonly exited: Promise<ProcessExit>;
  /** What kept it alive after its report, when it said so (see `LEAK_BOUND_MS`). */
  leaked(): readonly string[] | undefined;
  /** Everything it printed to stderr so far (for the failure messages). */
  errorOutput(): string;
  /** Sends SIGTERM (its stop), or SIGKILL while cleaning up after a failure. */
  kill(signal: NodeJS.Signals): void;
}

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Starts `examples/everything-at-once/<script>` with `args`, from the repository root. */
export function startExampleProcess(script: string, args: readonly string[]): ExampleProcess {
  const path = fileURLToPath(new URL(`./${script}`, import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path, ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    errors += chunk;
  });
  const exited = new Promise<ProcessExit>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const lines = readMarkedLines(child);
  const exitedWithout = (what: string) =>
    exited.then(({ code, signal }) => {
      throw new Error(`${script} exited (code ${code}, signal ${signal}) before its ${what}:\n${errors}`);
    });
  const ready = Promise.race([lines.ready, exitedWithout("ready line")]);
  const report = Promise.race([lines.report, exitedWithout("report")]) as Promise<ProcessReport>;
  // A test that fails early reads neither: their rejection at the process's exit is expected then.
  ready.catch(() => {});
  report.catch(() => {});
  return {
    ready,
    report,
    exited,
    leaked: () => lines.leaked,
    errorOutput: () => errors,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/** The `ready` and `report` values of the child's marked stdout lines, as they arrive. */
function readMarkedLines(child: ChildProcess): {
  ready: Promise<unknown>;
  report: Promise<unknown>;
  leaked: readonly string[] | undefined;
} {
  let onReady: (value: unknown) => void = () => {};
  let onReport: (value: unknown) => void = () => {};
  const ready = new Promise<unknown>((resolve) => {
    onReady = resolve;
  });
  const report = new Promise<unknown>((resolve) => {
    onReport = resolve;
  });
  const lines = { ready, report, leaked: undefined as readonly string[] | undefined };
  let pending = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const complete = pending.split("\n");
    pending = complete.pop() ?? "";
    for (const line of complete) {
      if (!line.startsWith(REPORT_MARK)) continue;
      const value = JSON.parse(line.slice(REPORT_MARK.length)) as {
        ready?: unknown;
        report?: unknown;
        leaked?: string[];
      };
      if ("ready" in value) onReady(value.ready);
      if ("report" in value) onReport(value.report);
      if ("leaked" in value) lines.leaked = value.leaked;
    }
  });
  return lines;
}
