import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { BudgetError, type TaskErrorInfo } from "./budget-error.js";
import type { ResolvedBudgetOptions } from "./budget-options.js";
import type { BudgetTask } from "./budget-task.js";
import { BUDGET_WORKER_SOURCE } from "./worker-source.js";

/** What one job asks for. */
export interface JobRequest {
  readonly task: BudgetTask;
  readonly input: unknown;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal: AbortSignal | undefined;
}

/** How busy a pool is. */
export interface BudgetStats {
  /** Worker threads alive (starting, idle or busy). */
  readonly workers: number;
  /** Workers running a job. */
  readonly busy: number;
  /** Jobs waiting for a worker. */
  readonly queued: number;
}

interface Job extends JobRequest {
  readonly id: number;
  readonly module: string;
  readonly submittedAt: number;
  deadlineAt: number;
  startedAt: number | undefined;
  timer: NodeJS.Timeout | undefined;
  worker: PoolWorker | undefined;
  readonly onAbort: () => void;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

interface PoolWorker {
  readonly worker: Worker;
  ready: boolean;
  job: Job | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

type WorkerReply =
  | { readonly ready: true }
  | { readonly id: number; readonly loading: true }
  | { readonly id: number; readonly loaded: true }
  | { readonly id: number; readonly result: unknown }
  | { readonly id: number; readonly outputBytes: number }
  | { readonly id: number; readonly error: TaskErrorInfo };

const RUNNING_FROM_SOURCE = import.meta.url.endsWith(".ts");

/**
 * A terminable pool of worker threads with a bounded queue. Each job has one deadline counted
 * from its submission: a job still queued at the deadline is failed, a running one has its worker
 * terminated (a fresh worker starts when one is next needed). Workers run with a heap limit, are
 * unref'd while idle (they never keep the process alive) and are terminated after `idleTimeoutMs`.
 */
export class WorkerPool {
  readonly #options: ResolvedBudgetOptions;
  readonly #queue: Job[] = [];
  readonly #workers = new Set<PoolWorker>();
  #nextId = 1;
  #needsTypeScript = RUNNING_FROM_SOURCE;
  #typescriptLoader: string | null | undefined;

  constructor(options: ResolvedBudgetOptions) {
    this.#options = options;
  }

  submit(request: JobRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const { task, signal } = request;
      if (signal?.aborted) {
        reject(abortError(task, signal.reason));
        return;
      }
      if (this.#queue.length >= this.#options.maxQueue) {
        reject(
          new BudgetError(
            "QUEUE_FULL",
            `budget: task ${task.label} refused: ${this.#queue.length} jobs are already waiting for a worker ` +
              `(maxQueue ${this.#options.maxQueue}, maxWorkers ${this.#options.maxWorkers})`,
            { task: task.label, limit: "maxQueue" },
          ),
        );
        return;
      }
      let module: string;
      try {
        module = task.moduleUrl();
      } catch (error) {
        reject(error);
        return;
      }
      if (module.endsWith(".ts")) this.#needsTypeScript = true;
      const now = performance.now();
      const job: Job = {
        ...request,
        id: this.#nextId++,
        module,
        submittedAt: now,
        deadlineAt: now + request.timeoutMs,
        startedAt: undefined,
        timer: undefined,
        worker: undefined,
        onAbort: () => this.#abort(job),
        resolve,
        reject,
      };
      job.timer = unrefTimer(() => this.#expire(job), request.timeoutMs);
      signal?.addEventListener("abort", job.onAbort, { once: true });
      this.#queue.push(job);
      this.#pump();
    });
  }

  stats(): BudgetStats {
    let busy = 0;
    for (const poolWorker of this.#workers) if (poolWorker.job !== undefined) busy++;
    return { workers: this.#workers.size, busy, queued: this.#queue.length };
  }

  /** Fails every waiting and running job and terminates every worker; later jobs start new workers. */
  async close(): Promise<void> {
    for (const job of this.#queue.splice(0)) this.#fail(job, closedError(job));
    const stopping: Promise<number>[] = [];
    for (const poolWorker of [...this.#workers]) {
      this.#workers.delete(poolWorker);
      clearTimeout(poolWorker.idleTimer);
      const job = poolWorker.job;
      poolWorker.job = undefined;
      if (job !== undefined) this.#fail(job, closedError(job));
      stopping.push(poolWorker.worker.terminate());
    }
    await Promise.all(stopping);
  }

  #pump(): void {
    for (const poolWorker of this.#workers) {
      if (this.#queue.length === 0) return;
      if (poolWorker.ready && poolWorker.job === undefined) {
        const job = this.#queue.shift() as Job;
        this.#start(poolWorker, job);
      }
    }
    let starting = 0;
    for (const poolWorker of this.#workers) if (!poolWorker.ready) starting++;
    let missing = Math.min(this.#queue.length - starting, this.#options.maxWorkers - this.#workers.size);
    while (missing-- > 0) this.#spawn();
  }

  #spawn(): void {
    const worker = new Worker(BUDGET_WORKER_SOURCE, {
      eval: true,
      workerData: { typescriptLoader: this.#loaderUrl() },
      resourceLimits: { maxOldGenerationSizeMb: this.#options.maxMemoryMb },
    });
    const poolWorker: PoolWorker = { worker, ready: false, job: undefined, idleTimer: undefined };
    this.#workers.add(poolWorker);
    worker.on("message", (reply: WorkerReply) => this.#onReply(poolWorker, reply));
    worker.on("error", (error) => this.#onStopped(poolWorker, error));
    worker.on("exit", (code) =>
      this.#onStopped(poolWorker, new Error(`the worker exited with code ${code}`)),
    );
  }

  /** tsx's loader, for workers that import `.ts` task modules (running from TypeScript sources). */
  #loaderUrl(): string | undefined {
    if (!this.#needsTypeScript) return undefined;
    if (this.#typescriptLoader === undefined) {
      try {
        const api = createRequire(import.meta.url).resolve("tsx/esm/api");
        this.#typescriptLoader = pathToFileURL(api.replace(/\.cjs$/, ".mjs")).href;
      } catch {
        this.#typescriptLoader = null;
      }
    }
    return this.#typescriptLoader ?? undefined;
  }

  #start(poolWorker: PoolWorker, job: Job): void {
    clearTimeout(poolWorker.idleTimer);
    poolWorker.idleTimer = undefined;
    poolWorker.job = job;
    job.worker = poolWorker;
    job.startedAt = performance.now();
    poolWorker.worker.ref();
    poolWorker.worker.postMessage({
      id: job.id,
      module: job.module,
      exportName: job.task.exportName,
      input: job.input,
      maxOutputBytes: job.maxOutputBytes,
    });
  }

  #onReply(poolWorker: PoolWorker, reply: WorkerReply): void {
    if ("ready" in reply) {
      poolWorker.ready = true;
      this.#idle(poolWorker);
      this.#pump();
      return;
    }
    const job = poolWorker.job;
    if (job === undefined || job.id !== reply.id) return;
    if ("loading" in reply) {
      // Loading a module is not the job's work: its deadline waits, bounded by startupTimeoutMs.
      clearTimeout(job.timer);
      job.deadlineAt -= performance.now();
      job.timer = unrefTimer(() => this.#startupExpired(job), this.#options.startupTimeoutMs);
      return;
    }
    if ("loaded" in reply) {
      clearTimeout(job.timer);
      job.deadlineAt += performance.now();
      job.timer = unrefTimer(() => this.#expire(job), Math.max(0, job.deadlineAt - performance.now()));
      return;
    }
    poolWorker.job = undefined;
    job.worker = undefined;
    this.#idle(poolWorker);
    if ("result" in reply) {
      this.#succeed(job, reply.result);
    } else if ("outputBytes" in reply) {
      this.#fail(
        job,
        new BudgetError(
          "BUDGET_LIMIT_EXCEEDED",
          `budget: task ${job.task.label} produced ${reply.outputBytes} bytes of output, more than maxOutputBytes (${job.maxOutputBytes})`,
          { task: job.task.label, limit: "maxOutputBytes" },
        ),
      );
    } else {
      this.#fail(
        job,
        new BudgetError(
          "BUDGET_TASK_FAILED",
          `budget: task ${job.task.label} failed: ${reply.error.message}`,
          {
            task: job.task.label,
            taskError: reply.error,
          },
        ),
      );
    }
    this.#pump();
  }

  #idle(poolWorker: PoolWorker): void {
    poolWorker.worker.unref();
    clearTimeout(poolWorker.idleTimer);
    poolWorker.idleTimer = unrefTimer(() => {
      if (poolWorker.job === undefined) this.#discard(poolWorker);
    }, this.#options.idleTimeoutMs);
  }

  #onStopped(poolWorker: PoolWorker, error: Error): void {
    if (!this.#workers.delete(poolWorker)) return;
    clearTimeout(poolWorker.idleTimer);
    const job = poolWorker.job;
    poolWorker.job = undefined;
    if (job !== undefined) {
      const outOfMemory = (error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY";
      this.#fail(
        job,
        outOfMemory
          ? new BudgetError(
              "BUDGET_LIMIT_EXCEEDED",
              `budget: task ${job.task.label} ran out of memory (maxMemoryMb ${this.#options.maxMemoryMb}); its worker was stopped`,
              { task: job.task.label, limit: "maxMemoryMb", cause: error },
            )
          : new BudgetError(
              "BUDGET_TASK_FAILED",
              `budget: the worker running task ${job.task.label} stopped: ${error.message}`,
              { task: job.task.label, cause: error },
            ),
      );
    }
    if (!poolWorker.ready) {
      // A worker that cannot start would fail again: fail the waiting jobs instead of looping.
      for (const waiting of this.#queue.splice(0)) {
        this.#fail(
          waiting,
          new BudgetError("BUDGET_TASK_FAILED", `budget: could not start a worker: ${error.message}`, {
            task: waiting.task.label,
            cause: error,
          }),
        );
      }
      return;
    }
    this.#pump();
  }

  #expire(job: Job): void {
    const now = performance.now();
    const waitedMs = Math.round((job.startedAt ?? now) - job.submittedAt);
    const timeoutMs = job.timeoutMs;
    if (job.worker === undefined) {
      const position = this.#queue.indexOf(job);
      if (position >= 0) this.#queue.splice(position, 1);
      this.#fail(
        job,
        new BudgetError(
          "BUDGET_TIMEOUT",
          `budget: task ${job.task.label} waited ${waitedMs} ms for a worker and was not started: its deadline ` +
            `(timeoutMs ${timeoutMs}) counts from submission (${position} jobs were ahead of it, maxWorkers ${this.#options.maxWorkers})`,
          { task: job.task.label, limit: "timeoutMs" },
        ),
      );
      return;
    }
    this.#discard(job.worker);
    this.#fail(
      job,
      new BudgetError(
        "BUDGET_TIMEOUT",
        `budget: task ${job.task.label} ran longer than timeoutMs (${timeoutMs} ms, counted from submission; ` +
          `${waitedMs} ms of it waiting for a worker) and its worker was terminated`,
        { task: job.task.label, limit: "timeoutMs" },
      ),
    );
    this.#pump();
  }

  #startupExpired(job: Job): void {
    if (job.worker !== undefined) this.#discard(job.worker);
    this.#fail(
      job,
      new BudgetError(
        "BUDGET_TIMEOUT",
        `budget: loading the module of task ${job.task.label} took longer than startupTimeoutMs (${this.#options.startupTimeoutMs} ms)`,
        { task: job.task.label, limit: "startupTimeoutMs" },
      ),
    );
    this.#pump();
  }

  #abort(job: Job): void {
    const position = this.#queue.indexOf(job);
    if (position >= 0) this.#queue.splice(position, 1);
    if (job.worker !== undefined) this.#discard(job.worker);
    this.#fail(job, abortError(job.task, job.signal?.reason));
    this.#pump();
  }

  /** Terminates a worker; a job it was running must be failed by the caller. */
  #discard(poolWorker: PoolWorker): void {
    this.#workers.delete(poolWorker);
    clearTimeout(poolWorker.idleTimer);
    if (poolWorker.job !== undefined) poolWorker.job.worker = undefined;
    poolWorker.job = undefined;
    void poolWorker.worker.terminate();
  }

  #succeed(job: Job, value: unknown): void {
    this.#settle(job);
    job.resolve(value);
  }

  #fail(job: Job, error: unknown): void {
    this.#settle(job);
    job.reject(error);
  }

  #settle(job: Job): void {
    clearTimeout(job.timer);
    job.timer = undefined;
    job.worker = undefined;
    job.signal?.removeEventListener("abort", job.onAbort);
  }
}

function unrefTimer(callback: () => void, delayMs: number): NodeJS.Timeout {
  const timer = setTimeout(callback, delayMs);
  timer.unref();
  return timer;
}

function abortError(task: BudgetTask, reason: unknown): BudgetError {
  const detail = reason instanceof Error ? reason.message : reason === undefined ? "aborted" : String(reason);
  return new BudgetError("EXCHANGE_ABORTED", `budget: task ${task.label} was aborted (${detail})`, {
    task: task.label,
    cause: reason,
  });
}

function closedError(job: Job): BudgetError {
  return new BudgetError(
    "EXCHANGE_ABORTED",
    `budget: task ${job.task.label} was stopped: the budget was closed`,
    {
      task: job.task.label,
    },
  );
}
