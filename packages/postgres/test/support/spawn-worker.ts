import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A scale-out worker running in its own Node process (see scale-out-worker.ts). */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Resolves when the worker's route consumes; rejects if it exits first. */
  readonly ready: Promise<void>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<void>;
  /** What the worker wrote to stderr so far. */
  errors(): string;
}

const packageRoot = fileURLToPath(new URL("../..", import.meta.url));

/** Starts a worker process for `queue`, with its tables and keys under `prefix`. */
export function spawnWorker(
  queue: string,
  prefix: string,
  idempotentStore: string,
  partsPerOrder: number,
): WorkerProcess {
  return spawnScript("scale-out-worker.ts", [queue, prefix, idempotentStore, String(partsPerOrder)]);
}

/** Starts `script` (a file beside this one) in a Node process with `args`. */
export function spawnScript(script: string, args: string[]): WorkerProcess {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(new URL(`./${script}`, import.meta.url)), ...args],
    { cwd: packageRoot, stdio: ["ignore", "pipe", "pipe"] },
  );
  let errorOutput = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errorOutput += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.once("exit", (code, signal) =>
      reject(new Error(`worker exited (${code ?? signal}) before it was ready: ${errorOutput}`)),
    );
  });
  ready.catch(() => {});
  return { child, ready, exited, errors: () => errorOutput };
}
