import { pauseDeadline, resumeDeadline } from "./job-deadline.js";
import type { Job, PoolWorker } from "./pool-job.js";

/**
 * Whether queued jobs' deadlines are paused. They pause while the pool warms up (an ordinary
 * worker starting, a module loading on one) and while it has workers but none can run a job
 * (each a replacement still loading): time in which no job could have run is nobody's wait. A
 * job whose deadline had (all but) passed when the pause began is failed, never started (see
 * `WorkerPool`'s `#nextRunnable`), so the jobs behind a failing one fail at their own deadlines;
 * each pause is bounded by `startupTimeoutMs`, and replacements follow only jobs that used up
 * their own deadlines.
 */
export class DeadlinePause {
  /** Ordinary workers starting plus jobs loading a module on them. */
  #warming = 0;
  #paused = false;

  get paused(): boolean {
    return this.#paused;
  }

  /** Counts warm-up work of ordinary (not replacement) workers; `update` must follow. */
  warm(delta: number): void {
    this.#warming = Math.max(0, this.#warming + delta);
  }

  /** Forgets every warm-up (the pool was closed). */
  reset(): void {
    this.#warming = 0;
    this.#paused = false;
  }

  /** Pauses or resumes the deadlines of `jobs` when the state of `workers` calls for it. */
  update(workers: ReadonlySet<PoolWorker>, jobs: Iterable<Job>, expire: (job: Job) => void): void {
    let anyReady = false;
    for (const poolWorker of workers) if (poolWorker.ready) anyReady = true;
    const paused = this.#warming > 0 || (workers.size > 0 && !anyReady);
    if (paused === this.#paused) return;
    this.#paused = paused;
    const now = performance.now();
    for (const job of jobs) {
      if (paused) pauseDeadline(job, now);
      else resumeDeadline(job, expire);
    }
  }
}
