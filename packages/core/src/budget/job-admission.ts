import type { BudgetError } from "./budget-error.js";
import { abortError, laneQueueFullError, queueFullError } from "./budget-failures.js";
import type { ResolvedBudgetOptions } from "./budget-options.js";
import type { LaneQueue } from "./lane-queue.js";
import type { Job, JobRequest } from "./pool-job.js";

/** Why a job is refused before it is queued (aborted already, queue or lane full), or undefined. */
export function refusalOf(
  request: JobRequest,
  queue: LaneQueue,
  options: ResolvedBudgetOptions,
): BudgetError | undefined {
  const { task, signal } = request;
  if (signal?.aborted) return abortError(task, signal.reason);
  if (queue.size >= options.maxQueue) {
    return queueFullError(task, queue.size, options.maxQueue, options.maxWorkers);
  }
  const waiting = queue.waiting(request.lane);
  if (waiting >= options.maxQueuePerLane) {
    return laneQueueFullError(task, request.lane, waiting, options.maxQueuePerLane);
  }
  return undefined;
}

/** What a new job is told by the pool: how it settles and what its abort does. */
export interface JobCallbacks {
  readonly onAbort: () => void;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** A job of `request` submitted now, not yet queued; its deadline timer is the pool's to start. */
export function newJob(request: JobRequest, id: number, module: string, callbacks: JobCallbacks): Job {
  const now = performance.now();
  return {
    ...request,
    id,
    module,
    submittedAt: now,
    deadlineAt: now + request.timeoutMs,
    remainingMs: undefined,
    loading: false,
    startedAt: undefined,
    holding: false,
    timer: undefined,
    worker: undefined,
    ...callbacks,
  };
}
