import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { LlmToolsError } from "../errors.js";
import { REGEX_WORKER_SOURCE } from "./regex-worker-source.js";

/** One matching job for a worker (see regex-worker-source.ts for the protocol). */
export interface RegexWorkerJob {
  readonly engine: "re2" | "native";
  readonly source: string;
  readonly flags: number | string;
  readonly text: string;
  readonly group: number | string;
  readonly all: boolean;
  readonly maxMatches: number;
}

interface PendingJob {
  readonly id: number;
  readonly job: RegexWorkerJob;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (values: string[]) => void;
  readonly reject: (error: unknown) => void;
  readonly onAbort: () => void;
}

interface PoolWorker {
  readonly worker: Worker;
  ready: boolean;
  current: PendingJob | undefined;
  timer: NodeJS.Timeout | undefined;
}

type WorkerReply = { ready: true } | { id: number; values: string[] } | { id: number; error: string };

const TOOL_NAME = "regex_extract";
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism() - 1));
const WORKER_MEMORY_MB = 128;

const queue: PendingJob[] = [];
const workers = new Set<PoolWorker>();
let nextJobId = 1;
let re2jsPath: string | undefined;

/**
 * Runs a job in a pooled worker. The worker is terminated when the job runs longer than
 * `timeoutMs` or `signal` aborts (a new one is started when next needed), so no pattern can block
 * the event loop. Idle workers are unref'd and never keep the process alive.
 */
export function runInRegexWorker(
  job: RegexWorkerJob,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const pending: PendingJob = {
      id: nextJobId++,
      job,
      timeoutMs,
      signal,
      resolve,
      reject,
      onAbort: () => abort(pending),
    };
    signal?.addEventListener("abort", pending.onAbort, { once: true });
    queue.push(pending);
    pump();
  });
}

/** Terminates every regex worker and fails the jobs still waiting; for clean process exits. */
export async function shutdownRegexWorkers(): Promise<void> {
  const error = new LlmToolsError("TOOL_FAILED", TOOL_NAME, `${TOOL_NAME}: the regex workers were shut down`);
  for (const pending of queue.splice(0)) fail(pending, error);
  const stopping: Promise<number>[] = [];
  for (const poolWorker of workers) {
    workers.delete(poolWorker);
    clearTimeout(poolWorker.timer);
    if (poolWorker.current !== undefined) fail(poolWorker.current, error);
    poolWorker.current = undefined;
    stopping.push(poolWorker.worker.terminate());
  }
  await Promise.all(stopping);
}

function pump(): void {
  for (const poolWorker of workers) {
    if (poolWorker.ready && poolWorker.current === undefined) {
      const next = queue.shift();
      if (next === undefined) return;
      start(poolWorker, next);
    }
  }
  let starting = 0;
  for (const poolWorker of workers) if (!poolWorker.ready) starting++;
  let missing = Math.min(queue.length - starting, POOL_SIZE - workers.size);
  while (missing-- > 0) spawn();
}

function spawn(): void {
  re2jsPath ??= createRequire(import.meta.url).resolve("re2js");
  const worker = new Worker(REGEX_WORKER_SOURCE, {
    eval: true,
    workerData: { re2jsPath },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB },
  });
  const poolWorker: PoolWorker = { worker, ready: false, current: undefined, timer: undefined };
  workers.add(poolWorker);
  worker.on("message", (reply: WorkerReply) => onReply(poolWorker, reply));
  worker.on("error", (error) => onFailure(poolWorker, error));
  worker.on("exit", (code) => onFailure(poolWorker, new Error(`the worker exited with code ${code}`)));
}

function start(poolWorker: PoolWorker, pending: PendingJob): void {
  poolWorker.current = pending;
  poolWorker.worker.ref();
  poolWorker.timer = setTimeout(() => stop(poolWorker, timeoutError(pending.timeoutMs)), pending.timeoutMs);
  poolWorker.worker.postMessage({ id: pending.id, ...pending.job });
}

function onReply(poolWorker: PoolWorker, reply: WorkerReply): void {
  if ("ready" in reply) {
    poolWorker.ready = true;
    poolWorker.worker.unref();
    pump();
    return;
  }
  const pending = poolWorker.current;
  if (pending === undefined || pending.id !== reply.id) return;
  clearTimeout(poolWorker.timer);
  poolWorker.current = undefined;
  poolWorker.worker.unref();
  if ("error" in reply) {
    fail(
      pending,
      new LlmToolsError("TOOL_FAILED", TOOL_NAME, `${TOOL_NAME}: matching failed: ${reply.error}`),
    );
  } else {
    succeed(pending, reply.values);
  }
  pump();
}

function onFailure(poolWorker: PoolWorker, error: Error): void {
  if (!workers.delete(poolWorker)) return;
  clearTimeout(poolWorker.timer);
  const failure = (message: string) =>
    new LlmToolsError("TOOL_FAILED", TOOL_NAME, `${TOOL_NAME}: ${message}: ${error.message}`, {
      cause: error,
    });
  if (poolWorker.current !== undefined) fail(poolWorker.current, failure("the regex worker stopped"));
  poolWorker.current = undefined;
  if (!poolWorker.ready) {
    // A worker that cannot start would fail again: give up on the waiting jobs instead of looping.
    for (const pending of queue.splice(0)) fail(pending, failure("could not start a regex worker"));
    return;
  }
  pump();
}

function abort(pending: PendingJob): void {
  const queued = queue.indexOf(pending);
  if (queued >= 0) {
    queue.splice(queued, 1);
    fail(pending, pending.signal?.reason);
    return;
  }
  for (const poolWorker of workers) {
    if (poolWorker.current === pending) stop(poolWorker, pending.signal?.reason);
  }
}

/** Terminates a busy worker and fails its job with `error`; a fresh worker starts when needed. */
function stop(poolWorker: PoolWorker, error: unknown): void {
  workers.delete(poolWorker);
  clearTimeout(poolWorker.timer);
  const pending = poolWorker.current;
  poolWorker.current = undefined;
  void poolWorker.worker.terminate();
  if (pending !== undefined) fail(pending, error);
  pump();
}

function succeed(pending: PendingJob, values: string[]): void {
  pending.signal?.removeEventListener("abort", pending.onAbort);
  pending.resolve(values);
}

function fail(pending: PendingJob, error: unknown): void {
  pending.signal?.removeEventListener("abort", pending.onAbort);
  pending.reject(error);
}

function timeoutError(timeoutMs: number): LlmToolsError {
  return new LlmToolsError(
    "TOOL_TIMEOUT",
    TOOL_NAME,
    `${TOOL_NAME}: matching ran longer than matchTimeoutMs (${timeoutMs} ms) and was stopped`,
  );
}
