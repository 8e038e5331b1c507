import { BudgetError, type TaskErrorInfo } from "./budget-error.js";
import type { BudgetTask } from "./budget-task.js";
import type { Job } from "./pool-job.js";

/** The errors a pool fails jobs with; each names the task, the limit and its value. */

export function queueFullError(
  task: BudgetTask,
  queued: number,
  maxQueue: number,
  maxWorkers: number,
): BudgetError {
  return new BudgetError(
    "QUEUE_FULL",
    `budget: task ${task.label} refused: ${queued} jobs are already waiting for a worker ` +
      `(maxQueue ${maxQueue}, maxWorkers ${maxWorkers})`,
    { task: task.label, limit: "maxQueue" },
  );
}

export function laneQueueFullError(
  task: BudgetTask,
  lane: string,
  queued: number,
  maxQueuePerLane: number,
): BudgetError {
  return new BudgetError(
    "QUEUE_FULL",
    `budget: task ${task.label} refused: ${queued} jobs of lane '${lane}' are already waiting for a worker ` +
      `(maxQueuePerLane ${maxQueuePerLane}: one lane may not take the whole queue)`,
    { task: task.label, limit: "maxQueuePerLane" },
  );
}

export function queueTimeoutError(
  job: Job,
  waitedMs: number,
  ahead: number,
  maxWorkers: number,
): BudgetError {
  return new BudgetError(
    "BUDGET_TIMEOUT",
    `budget: task ${job.task.label} waited ${waitedMs} ms for a worker and was not started: its deadline ` +
      `(timeoutMs ${job.timeoutMs}) counts from submission (${ahead} jobs of lane '${job.lane}' were ahead of it, maxWorkers ${maxWorkers})`,
    { task: job.task.label, limit: "timeoutMs", started: false },
  );
}

export function runTimeoutError(job: Job, waitedMs: number): BudgetError {
  return new BudgetError(
    "BUDGET_TIMEOUT",
    `budget: task ${job.task.label} ran longer than timeoutMs (${job.timeoutMs} ms, counted from submission; ` +
      `${waitedMs} ms of it waiting for a worker) and its worker was terminated`,
    { task: job.task.label, limit: "timeoutMs", started: true },
  );
}

export function startupTimeoutError(job: Job, startupTimeoutMs: number): BudgetError {
  return new BudgetError(
    "BUDGET_TIMEOUT",
    `budget: loading the module of task ${job.task.label} took longer than startupTimeoutMs (${startupTimeoutMs} ms)`,
    { task: job.task.label, limit: "startupTimeoutMs" },
  );
}

export function outputError(job: Job, outputBytes: number): BudgetError {
  return new BudgetError(
    "BUDGET_LIMIT_EXCEEDED",
    `budget: task ${job.task.label} produced ${outputBytes} bytes of output, more than maxOutputBytes (${job.maxOutputBytes})`,
    { task: job.task.label, limit: "maxOutputBytes" },
  );
}

/** The worker running `job` stopped: out of memory (its heap limit), or for another reason. */
/** The task threw (or rejected) in its worker: the task's own error travels as `taskError`. */
export function taskFailedError(job: Job, taskError: TaskErrorInfo): BudgetError {
  const message = `budget: task ${job.task.label} failed: ${taskError.message}`;
  return new BudgetError("BUDGET_TASK_FAILED", message, { task: job.task.label, taskError });
}

export function workerStoppedError(job: Job, error: Error, maxMemoryMb: number): BudgetError {
  if ((error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new BudgetError(
      "BUDGET_LIMIT_EXCEEDED",
      `budget: task ${job.task.label} ran out of memory (maxMemoryMb ${maxMemoryMb}); its worker was stopped`,
      { task: job.task.label, limit: "maxMemoryMb", cause: error },
    );
  }
  return new BudgetError(
    "BUDGET_TASK_FAILED",
    `budget: the worker running task ${job.task.label} stopped: ${error.message}`,
    { task: job.task.label, cause: error },
  );
}

export function startFailedError(job: Job, error: Error): BudgetError {
  return new BudgetError("BUDGET_TASK_FAILED", `budget: could not start a worker: ${error.message}`, {
    task: job.task.label,
    cause: error,
  });
}

export function abortError(task: BudgetTask, reason: unknown): BudgetError {
  const detail = reason instanceof Error ? reason.message : reason === undefined ? "aborted" : String(reason);
  return new BudgetError("EXCHANGE_ABORTED", `budget: task ${task.label} was aborted (${detail})`, {
    task: task.label,
    cause: reason,
  });
}

export function closedError(job: Job): BudgetError {
  return new BudgetError(
    "EXCHANGE_ABORTED",
    `budget: task ${job.task.label} was stopped: the budget was closed`,
    {
      task: job.task.label,
    },
  );
}
