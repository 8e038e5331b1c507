import {
  abortError,
  closedError,
  outputError,
  queueTimeoutError,
  runTimeoutError,
  startFailedError,
  startupTimeoutError,
  taskFailedError,
  workerStoppedError,
} from "./budget-failures.js";
import type { ResolvedBudgetOptions } from "./budget-options.js";
import { type BudgetStats, countStats } from "./budget-stats.js";
import { DeadlinePause } from "./deadline-pause.js";
import { newJob, refusalOf } from "./job-admission.js";
import {
  clearDeadline,
  continueDeadlineAfterLoading,
  holdDeadlineWhileLoading,
  resumeDeadline,
  timeLeft,
} from "./job-deadline.js";
import { LaneQueue } from "./lane-queue.js";
import { type Job, type JobRequest, unrefTimer } from "./pool-job.js";
import { type PoolWorker, spawnWorker, type WorkerReply } from "./spawn-worker.js";

export type { BudgetStats } from "./budget-stats.js";
export type { JobRequest } from "./pool-job.js";

const RUNNING_FROM_SOURCE = import.meta.url.endsWith(".ts");

/**
 * A terminable pool of worker threads with a bounded queue. Each job has one deadline counted
 * from its submission: a job still queued at the deadline is failed, a running one has its worker
 * terminated (a fresh worker starts when one is next needed). Time in which no job could run —
 * the pool warming up, or every worker a replacement still loading, each bounded by
 * `startupTimeoutMs` — is not counted (see `DeadlinePause`), and a job's own module loading never
 * counts; a job whose deadline had passed is never started. Workers run
 * with a heap limit, are unref'd while idle (they never keep the process alive) and are
 * terminated after `idleTimeoutMs`.
 */
export class WorkerPool {
  readonly #options: ResolvedBudgetOptions;
  #queue: LaneQueue;
  readonly #workers = new Set<PoolWorker>();
  #nextId = 1;
  readonly #pause = new DeadlinePause();
  #needsTypeScript = RUNNING_FROM_SOURCE;

  constructor(options: ResolvedBudgetOptions) {
    this.#options = options;
    this.#queue = this.#newQueue();
  }

  #newQueue(): LaneQueue {
    const { maxWorkers, maxWorkersPerLane, timeoutMs } = this.#options;
    return new LaneQueue({ maxWorkers, maxWorkersPerLane, presentMs: timeoutMs });
  }

  submit(request: JobRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const refusal = refusalOf(request, this.#queue, this.#options);
      if (refusal !== undefined) {
        reject(refusal);
        return;
      }
      let module: string;
      try {
        module = request.task.moduleUrl();
      } catch (error) {
        reject(error);
        return;
      }
      if (module.endsWith(".ts")) this.#needsTypeScript = true;
      const job = newJob(request, this.#nextId++, module, {
        onAbort: () => this.#abort(job),
        resolve,
        reject,
      });
      if (this.#pause.paused) job.remainingMs = request.timeoutMs;
      else job.timer = unrefTimer(() => this.#expire(job), request.timeoutMs);
      request.signal?.addEventListener("abort", job.onAbort, { once: true });
      this.#queue.push(job);
      this.#pump();
    });
  }

  stats(): BudgetStats {
    return countStats(this.#workers, this.#queue.size);
  }

  /** Fails every waiting and running job and terminates every worker; later jobs start new workers. */
  async close(): Promise<void> {
    this.#pause.reset();
    const waiting = this.#queue.drain();
    this.#queue = this.#newQueue();
    for (const job of waiting) this.#fail(job, closedError(job));
    const stopping: Promise<number>[] = [];
    for (const poolWorker of [...this.#workers]) {
      this.#workers.delete(poolWorker);
      clearTimeout(poolWorker.idleTimer);
      poolWorker.chargedLane = undefined;
      const job = poolWorker.job;
      poolWorker.job = undefined;
      if (job !== undefined) this.#fail(job, closedError(job));
      stopping.push(poolWorker.worker.terminate());
    }
    await Promise.all(stopping);
  }

  #pump(): void {
    for (const poolWorker of this.#workers) {
      if (poolWorker.ready && poolWorker.job === undefined) {
        const job = this.#nextRunnable();
        if (job === undefined) break;
        this.#start(poolWorker, job);
      }
    }
    let starting = 0;
    for (const poolWorker of this.#workers) {
      if (poolWorker.ready) continue;
      // A starting worker keeps the process alive only while a job waits for it.
      if (this.#queue.size > 0) poolWorker.worker.ref();
      starting++;
    }
    // Only jobs their lane lets take a worker now call for one: a lane at its share starts none.
    const runnable = this.#queue.runnable();
    let missing = Math.min(runnable - starting, this.#options.maxWorkers - this.#workers.size);
    while (missing-- > 0) this.#spawn(false, []);
  }

  /**
   * Starts a worker. A replacement (for one terminated for a job's sake) loads the modules its
   * predecessor had, so the next job finds it warm; its warm-up pauses nobody's deadline.
   */
  #spawn(replacement: boolean, preload: readonly string[]): PoolWorker {
    const poolWorker = spawnWorker({
      maxMemoryMb: this.#options.maxMemoryMb,
      replacement,
      preload,
      typescript: this.#needsTypeScript,
    });
    if (this.#queue.size > 0) poolWorker.worker.ref();
    this.#workers.add(poolWorker);
    if (replacement) this.#updatePause();
    else this.#warm(1);
    const { worker } = poolWorker;
    worker.on("message", (reply: WorkerReply) => this.#onReply(poolWorker, reply));
    worker.on("error", (error) => this.#onStopped(poolWorker, error));
    worker.on("exit", (code) =>
      this.#onStopped(poolWorker, new Error(`the worker exited with code ${code}`)),
    );
    return poolWorker;
  }

  #start(poolWorker: PoolWorker, job: Job): void {
    clearTimeout(poolWorker.idleTimer);
    poolWorker.idleTimer = undefined;
    poolWorker.job = job;
    job.worker = poolWorker;
    job.startedAt = performance.now();
    job.holding = true;
    this.#queue.hold(job.lane, 1);
    this.#resume(job);
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
      this.#uncharge(poolWorker);
      if (poolWorker.replacement) this.#updatePause();
      else this.#warm(-1);
      this.#idle(poolWorker);
      this.#pump();
      return;
    }
    const job = poolWorker.job;
    if (job === undefined || job.id !== reply.id) return;
    if ("loading" in reply) {
      holdDeadlineWhileLoading(job, this.#options.startupTimeoutMs, (loading) =>
        this.#startupExpired(loading),
      );
      if (!poolWorker.replacement) {
        job.loading = true;
        this.#warm(1);
      }
      return;
    }
    if ("loaded" in reply) {
      poolWorker.modules.add(job.module);
      continueDeadlineAfterLoading(job, (loaded) => this.#expire(loaded));
      if (job.loading) {
        job.loading = false;
        this.#warm(-1);
      }
      return;
    }
    poolWorker.job = undefined;
    job.worker = undefined;
    this.#idle(poolWorker);
    if ("result" in reply) this.#succeed(job, reply.result);
    else
      this.#fail(
        job,
        "outputBytes" in reply ? outputError(job, reply.outputBytes) : taskFailedError(job, reply.error),
      );
    this.#pump();
  }

  /**
   * The next queued job with time left, round robin over the lanes that may take another worker;
   * those whose deadline has (all but) passed are failed now.
   */
  #nextRunnable(): Job | undefined {
    for (;;) {
      const job = this.#queue.peek();
      if (job === undefined) return undefined;
      if (timeLeft(job) >= 1) {
        this.#queue.take(job);
        return job;
      }
      this.#expire(job);
    }
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
    this.#uncharge(poolWorker);
    if (!poolWorker.ready && !poolWorker.replacement) this.#warm(-1);
    const job = poolWorker.job;
    if (job !== undefined) this.#replace(poolWorker);
    this.#updatePause();
    poolWorker.job = undefined;
    if (job !== undefined) this.#fail(job, workerStoppedError(job, error, this.#options.maxMemoryMb));
    if (!poolWorker.ready) {
      // A worker that cannot start would fail again: fail the waiting jobs instead of looping.
      for (const waiting of this.#queue.drain()) this.#fail(waiting, startFailedError(waiting, error));
      return;
    }
    this.#pump();
  }

  #expire(job: Job): void {
    const now = performance.now();
    const waitedMs = Math.round((job.startedAt ?? now) - job.submittedAt);
    if (job.worker === undefined) {
      const position = this.#queue.remove(job);
      this.#fail(job, queueTimeoutError(job, waitedMs, position, this.#options.maxWorkers));
      return;
    }
    this.#discard(job.worker, true);
    this.#fail(job, runTimeoutError(job, waitedMs));
    this.#pump();
  }

  #startupExpired(job: Job): void {
    if (job.worker !== undefined) this.#discard(job.worker);
    this.#fail(job, startupTimeoutError(job, this.#options.startupTimeoutMs));
    this.#pump();
  }

  #abort(job: Job): void {
    this.#queue.remove(job);
    if (job.worker !== undefined) this.#discard(job.worker);
    this.#fail(job, abortError(job.task, job.signal?.reason));
    this.#pump();
  }

  /**
   * Terminates a worker; a job it was running must be failed by the caller. With `replace`, a
   * replacement starts at once (see `#replace`).
   */
  #discard(poolWorker: PoolWorker, replace = false): void {
    if (!this.#workers.delete(poolWorker)) return;
    this.#uncharge(poolWorker);
    if (!poolWorker.ready && !poolWorker.replacement) this.#warm(-1);
    if (replace) this.#replace(poolWorker);
    this.#updatePause();
    clearTimeout(poolWorker.idleTimer);
    if (poolWorker.job !== undefined) poolWorker.job.worker = undefined;
    poolWorker.job = undefined;
    void poolWorker.worker.terminate();
  }

  /**
   * Starts a replacement for a worker terminated for its job's sake, when there is room. It loads
   * only that job's module (not every module its predecessor had: those may never be needed
   * again), and the job's lane holds it until it is ready: a lane whose jobs keep being stopped
   * waits for its own replacements, and the other lanes keep their workers.
   */
  #replace(poolWorker: PoolWorker): void {
    if (this.#workers.size >= this.#options.maxWorkers) return;
    const job = poolWorker.job;
    const replacement = this.#spawn(true, job === undefined ? [] : [job.module]);
    if (job === undefined) return;
    replacement.chargedLane = job.lane;
    this.#queue.hold(job.lane, 1);
  }

  /** Releases the lane charged for a replacement (it is ready, or it stopped). */
  #uncharge(poolWorker: PoolWorker): void {
    if (poolWorker.chargedLane === undefined) return;
    this.#queue.hold(poolWorker.chargedLane, -1);
    poolWorker.chargedLane = undefined;
  }

  /** Counts warm-up work of ordinary (not replacement) workers. */
  #warm(delta: number): void {
    this.#pause.warm(delta);
    this.#updatePause();
  }

  #updatePause(): void {
    this.#pause.update(this.#workers, this.#queue.jobs(), (job) => this.#expire(job));
  }

  /** Restarts the deadline of a job whose deadline was paused. */
  #resume(job: Job): void {
    resumeDeadline(job, (expired) => this.#expire(expired));
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
    clearDeadline(job);
    if (job.holding) {
      job.holding = false;
      this.#queue.hold(job.lane, -1);
    }
    if (job.loading) {
      job.loading = false;
      this.#warm(-1);
    }
    job.worker = undefined;
    job.signal?.removeEventListener("abort", job.onAbort);
  }
}
