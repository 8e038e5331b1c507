import type { PoolWorker } from "./pool-job.js";

/** How busy a pool is. */
export interface BudgetStats {
  /** Worker threads alive (starting, idle or busy). */
  readonly workers: number;
  /** Workers running a job. */
  readonly busy: number;
  /** Workers still starting (loading modules before their first job). */
  readonly starting: number;
  /** Jobs waiting for a worker. */
  readonly queued: number;
}

/** The stats of a pool with these workers and `queued` jobs waiting. */
export function countStats(workers: ReadonlySet<PoolWorker>, queued: number): BudgetStats {
  let busy = 0;
  let starting = 0;
  for (const poolWorker of workers) {
    if (poolWorker.job !== undefined) busy++;
    if (!poolWorker.ready) starting++;
  }
  return { workers: workers.size, busy, starting, queued };
}
