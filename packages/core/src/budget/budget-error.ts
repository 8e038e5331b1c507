import { RoutekitError, type RoutekitErrorCode } from "../errors/errors.js";

/** What a task threw inside its worker, as far as it crosses the thread boundary. */
export interface TaskErrorInfo {
  readonly name: string;
  readonly message: string;
  /** The error's `code`, when it had a string one. */
  readonly code: string | undefined;
  /** The error's other own fields with string, number or boolean values (e.g. `key`). */
  readonly details: Readonly<Record<string, string | number | boolean>>;
}

/** The codes a budget raises. */
export type BudgetErrorCode = Extract<
  RoutekitErrorCode,
  | "BUDGET_TIMEOUT"
  | "BUDGET_LIMIT_EXCEEDED"
  | "BUDGET_TASK_FAILED"
  | "BUDGET_OPTION_INVALID"
  | "QUEUE_FULL"
  | "EXCHANGE_ABORTED"
>;

/**
 * A job of a budget failed: it ran out of time (`BUDGET_TIMEOUT`, in the queue or running), hit
 * a limit (`BUDGET_LIMIT_EXCEEDED`: memory, output), found the queue full (`QUEUE_FULL`), was
 * aborted (`EXCHANGE_ABORTED`) or the task itself threw (`BUDGET_TASK_FAILED`, see `taskError`).
 */
export class BudgetError extends RoutekitError {
  override readonly name = "BudgetError";
  /** The task's name (its module file and export), when a job was running one. */
  readonly task: string | undefined;
  /** The option whose limit was hit (`timeoutMs`, `maxMemoryMb`, `maxOutputBytes`, `maxQueue`, ...). */
  readonly limit: string | undefined;
  /** What the task threw, for `BUDGET_TASK_FAILED`. */
  readonly taskError: TaskErrorInfo | undefined;
  /** For `BUDGET_TIMEOUT`: whether the job had started in a worker (false: it timed out waiting). */
  readonly started: boolean | undefined;

  constructor(
    code: BudgetErrorCode,
    message: string,
    fields: {
      task: string | undefined;
      limit?: string;
      taskError?: TaskErrorInfo;
      started?: boolean;
      cause?: unknown;
    },
  ) {
    super(code, message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.task = fields.task;
    this.limit = fields.limit;
    this.taskError = fields.taskError;
    this.started = fields.started;
  }
}
