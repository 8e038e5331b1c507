import { type Job, unrefTimer } from "./pool-job.js";

/**
 * A job's deadline while it waits or runs: a timer that fails it at `deadlineAt`, paused (the
 * time left kept in `remainingMs`) while no job could run, and held while its module loads.
 */

/** Stops the job's timer and keeps the time it has left. */
export function pauseDeadline(job: Job, now: number): void {
  if (job.timer === undefined) return;
  clearTimeout(job.timer);
  job.timer = undefined;
  job.remainingMs = Math.max(0, job.deadlineAt - now);
}

/** Restarts the deadline of a job whose deadline was paused. */
export function resumeDeadline(job: Job, expire: (job: Job) => void): void {
  if (job.remainingMs === undefined) return;
  const remainingMs = job.remainingMs;
  job.remainingMs = undefined;
  job.deadlineAt = performance.now() + remainingMs;
  job.timer = unrefTimer(() => expire(job), remainingMs);
}

/** The ms a queued job has left before its deadline (its kept time while paused). */
export function timeLeft(job: Job): number {
  return job.timer === undefined ? (job.remainingMs ?? 0) : job.deadlineAt - performance.now();
}

/** Loading a module is not the job's work: its deadline waits, bounded by `startupTimeoutMs`. */
export function holdDeadlineWhileLoading(
  job: Job,
  startupTimeoutMs: number,
  expire: (job: Job) => void,
): void {
  clearTimeout(job.timer);
  job.deadlineAt -= performance.now();
  job.timer = unrefTimer(() => expire(job), startupTimeoutMs);
}

/** The module loaded: the deadline goes on with the time it had when loading began. */
export function continueDeadlineAfterLoading(job: Job, expire: (job: Job) => void): void {
  clearTimeout(job.timer);
  job.deadlineAt += performance.now();
  job.timer = unrefTimer(() => expire(job), Math.max(0, job.deadlineAt - performance.now()));
}

/** Stops the job's deadline for good (it is settled). */
export function clearDeadline(job: Job): void {
  clearTimeout(job.timer);
  job.timer = undefined;
  job.remainingMs = undefined;
}
