import type { BudgetTask } from "./budget-task.js";
import type { PoolWorker } from "./spawn-worker.js";

/** What one job asks for. */
export interface JobRequest {
  readonly task: BudgetTask;
  readonly input: unknown;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal: AbortSignal | undefined;
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
