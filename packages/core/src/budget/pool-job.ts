import type { Worker } from "node:worker_threads";
import type { BudgetTask } from "./budget-task.js";

/** What one job asks for. */
export interface JobRequest {
  readonly task: BudgetTask;
  readonly input: unknown;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal: AbortSignal | undefined;
  /** The lane it is queued and counted in (see `LaneQueue`). */
  readonly lane: string;
}

/** A submitted job: its request, its deadline and where it runs. */
export interface Job extends JobRequest {
  readonly id: number;
  /** The module file the worker imports. */
  readonly module: string;
  readonly submittedAt: number;
  deadlineAt: number;
  /** Set while the deadline is paused (the pool is warming up): the time left. */
  remainingMs: number | undefined;
  /** True between the worker's "loading" and "loaded" replies on a worker that is not a replacement. */
  loading: boolean;
  startedAt: number | undefined;
  /** Whether it holds a worker of its lane (from its start until it is settled). */
  holding: boolean;
  timer: NodeJS.Timeout | undefined;
  worker: PoolWorker | undefined;
  readonly onAbort: () => void;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** A timer that never keeps the process alive. */
export function unrefTimer(callback: () => void, delayMs: number): NodeJS.Timeout {
  const timer = setTimeout(callback, delayMs);
  timer.unref();
  return timer;
}

/** One worker thread of a pool and what the pool knows about it. */
export interface PoolWorker {
  readonly worker: Worker;
  /**
   * Started in place of a worker terminated for a job's sake: its warm-up is charged to the jobs
   * waiting, so failing jobs cannot stretch other jobs' deadlines.
   */
  readonly replacement: boolean;
  /** The task modules this worker has loaded (a replacement loads them again before it is ready). */
  readonly modules: Set<string>;
  ready: boolean;
  job: Job | undefined;
  /** The lane charged for this worker while it starts, when it replaces one terminated for that lane's job. */
  chargedLane?: string | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}
