import { describeValue } from "../support/describe-value.js";
import { BudgetError } from "./budget-error.js";
import {
  type BudgetOptions,
  checkLimit,
  type ResolvedBudgetOptions,
  resolveBudgetOptions,
} from "./budget-options.js";
import type { BudgetTask } from "./budget-task.js";
import { type BudgetStats, WorkerPool } from "./worker-pool.js";

/** Per-job overrides of a budget's limits. */
export interface BudgetRunOptions {
  /** Longest time from submission to result, in milliseconds (default: the budget's `timeoutMs`). */
  timeoutMs?: number;
  /** Largest result in UTF-8 bytes (default: the budget's `maxOutputBytes`). */
  maxOutputBytes?: number;
  /** Aborting it fails the job and, when it runs, terminates its worker. */
  signal?: AbortSignal;
  /**
   * The lane the job queues and runs in: a tool's name, a route id, a caller's key (default: the
   * task's label, so each task has a lane of its own). Lanes are served round robin, and one lane
   * holds at most `maxWorkersPerLane` workers and `maxQueuePerLane` waiting jobs, so hostile input
   * in one lane cannot take every worker from the others. 1 to 200 characters.
   */
  lane?: string;
}

/** Longest lane name (it appears in error messages). */
const MAX_LANE_CHARS = 200;

/**
 * One bounded way to evaluate untrusted text: jobs run in a pool of worker threads under a
 * deadline counted from submission (a running job's worker is terminated at it), a heap limit per
 * worker, an output cap, and a bounded queue. A job may fail; the process and its event loop
 * never wait for it.
 */
export interface Budget {
  readonly options: ResolvedBudgetOptions;
  /**
   * Runs `task` on `input` in a worker and resolves with its result. Rejects with a `BudgetError`:
   * `BUDGET_TIMEOUT`, `BUDGET_LIMIT_EXCEEDED` (memory, output), `QUEUE_FULL`, `EXCHANGE_ABORTED`,
   * or `BUDGET_TASK_FAILED` when the task threw (what it threw is in `taskError`).
   */
  run<TInput, TResult>(
    task: BudgetTask<TInput, TResult>,
    input: TInput,
    options?: BudgetRunOptions,
  ): Promise<TResult>;
  /** Workers alive, workers busy, jobs waiting. */
  stats(): BudgetStats;
  /** Fails every waiting and running job and terminates every worker; the budget stays usable. */
  close(): Promise<void>;
}

/** Creates a budget with its own worker pool (see `BudgetOptions` for the limits and defaults). */
export function createBudget(options?: BudgetOptions): Budget {
  const resolved = resolveBudgetOptions(options);
  const pool = new WorkerPool(resolved);
  return {
    options: resolved,
    run: <TInput, TResult>(
      task: BudgetTask<TInput, TResult>,
      input: TInput,
      runOptions: BudgetRunOptions = {},
    ) =>
      pool.submit({
        task: task as BudgetTask,
        input,
        timeoutMs:
          runOptions.timeoutMs === undefined
            ? resolved.timeoutMs
            : checkLimit("budget.run", "timeoutMs", runOptions.timeoutMs),
        maxOutputBytes:
          runOptions.maxOutputBytes === undefined
            ? resolved.maxOutputBytes
            : checkLimit("budget.run", "maxOutputBytes", runOptions.maxOutputBytes),
        signal: runOptions.signal,
        lane: runOptions.lane === undefined ? task.label : checkLane(runOptions.lane),
      }) as Promise<TResult>,
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}

function checkLane(lane: unknown): string {
  if (typeof lane !== "string" || lane === "" || lane.length > MAX_LANE_CHARS) {
    const found = typeof lane === "string" ? `${lane.length} characters` : describeValue(lane);
    throw new BudgetError(
      "BUDGET_OPTION_INVALID",
      `budget.run: option 'lane' must be a text of 1 to ${MAX_LANE_CHARS} characters (found ${found})`,
      { task: undefined, limit: "lane" },
    );
  }
  return lane;
}

let shared: Budget | undefined;

/**
 * The process-wide budget the built-in tools and expressions use unless given their own: default
 * limits, created on first use. Its idle workers are unref'd and end after `idleTimeoutMs`.
 */
export function sharedBudget(): Budget {
  shared ??= createBudget();
  return shared;
}

/** Whether a value is a budget made by `createBudget` (for checking options that take one). */
export function isBudget(value: unknown): value is Budget {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Budget).run === "function" &&
    typeof (value as Budget).close === "function" &&
    typeof (value as Budget).stats === "function"
  );
}
