import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A routekit worker running in its own Node process (see amqp-worker.ts). */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Resolves when the worker's route consumes; rejects if it exits first. */
  readonly ready: Promise<void>;
}

const script = fileURLToPath(new URL("./amqp-worker.ts", import.meta.url));
const packageRoot = fileURLToPath(new URL("../..", import.meta.url));

/** Starts a worker process that consumes `queue` and forwards to `results`, tagged with `name`. */
export function spawnWorker(queue: string, results: string, name: string): WorkerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", script, queue, results, name], {
    cwd: packageRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errorOutput = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errorOutput += chunk.toString();
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.on("exit", (code) =>
      reject(new Error(`worker ${name} exited with ${code} before it was ready: ${errorOutput}`)),
    );
  });
  return { child, ready };
}
