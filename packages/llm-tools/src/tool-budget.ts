import { type Budget, BudgetError, type BudgetTask, sharedBudget } from "@routekit/core";
import { LlmToolsError, type LlmToolsErrorCode, ToolInputError } from "./errors.js";

const TOOL_ERROR_CODES: readonly string[] = [
  "TOOL_INPUT_INVALID",
  "TOOL_OPTION_INVALID",
  "TOOL_GUARD_REFUSED",
  "TOOL_LIMIT_EXCEEDED",
  "TOOL_TIMEOUT",
  "TOOL_FAILED",
] satisfies LlmToolsErrorCode[];

/** How one tool job runs under a budget. */
export interface ToolJob<TInput, TResult> {
  readonly toolName: string;
  readonly task: BudgetTask<TInput, TResult>;
  readonly input: TInput;
  /** The tool's budget option; the shared budget when undefined. */
  readonly budget: Budget | undefined;
  readonly timeoutMs: number;
  /** The timeout the messages name, when it differs from `timeoutMs` (e.g. the part left of it). */
  readonly statedTimeoutMs?: number;
  /** The name of the tool option that set `timeoutMs`, for error messages. */
  readonly timeoutOption: string;
  /** What the job does, for the timeout message: "matching", "evaluation", "the query". */
  readonly activity: string;
  readonly maxOutputBytes: number;
  readonly signal: AbortSignal | undefined;
  /** The budget lane it queues in (default: the tool's name, so one tool's hostile input cannot take every worker). */
  readonly lane?: string | undefined;
}

/**
 * Runs a tool's job under its budget and turns what can go wrong into this package's errors:
 * the task's own errors come back as the LlmToolsError (or ToolInputError) it threw; a deadline
 * becomes TOOL_TIMEOUT and a memory, output or queue limit TOOL_LIMIT_EXCEEDED, each naming the
 * tool and the option. An aborted job rejects with the signal's reason.
 */
export async function runToolJob<TInput, TResult>(job: ToolJob<TInput, TResult>): Promise<TResult> {
  const budget = job.budget ?? sharedBudget();
  try {
    return await budget.run(job.task, job.input, {
      timeoutMs: job.timeoutMs,
      maxOutputBytes: job.maxOutputBytes,
      signal: job.signal,
      lane: job.lane ?? job.toolName,
    });
  } catch (error) {
    throw toToolError(error, job);
  }
}

function toToolError(error: unknown, job: ToolJob<unknown, unknown>): unknown {
  if (!(error instanceof BudgetError)) return error;
  const { toolName } = job;
  const stated = job.statedTimeoutMs ?? job.timeoutMs;
  const taskError = error.taskError;
  if (error.code === "BUDGET_TASK_FAILED" && taskError !== undefined) {
    const code = taskError.code;
    if (code === "TOOL_INPUT_INVALID") {
      const key = taskError.details.key;
      return new ToolInputError(toolName, taskError.message, typeof key === "string" ? key : undefined);
    }
    if (code !== undefined && TOOL_ERROR_CODES.includes(code)) {
      return new LlmToolsError(code as LlmToolsErrorCode, toolName, taskError.message);
    }
    return new LlmToolsError(
      "TOOL_FAILED",
      toolName,
      `${toolName}: ${taskError.name}: ${taskError.message}`,
      {
        cause: error,
      },
    );
  }
  switch (error.code) {
    case "BUDGET_TIMEOUT":
      return new LlmToolsError(
        "TOOL_TIMEOUT",
        toolName,
        error.started === true
          ? `${toolName}: ${job.activity} ran longer than ${job.timeoutOption} (${stated} ms) and was stopped`
          : error.started === false
            ? `${toolName}: ${job.activity} did not start within ${job.timeoutOption} (${stated} ms, counted from ` +
              "submission): every worker of the budget was busy"
            : `${toolName}: ${error.message}`,
        { cause: error },
      );
    case "BUDGET_LIMIT_EXCEEDED":
    case "QUEUE_FULL":
      return new LlmToolsError("TOOL_LIMIT_EXCEEDED", toolName, `${toolName}: ${error.message}`, {
        cause: error,
      });
    case "EXCHANGE_ABORTED":
      return job.signal?.aborted ? job.signal.reason : error;
    default:
      return new LlmToolsError("TOOL_FAILED", toolName, `${toolName}: ${error.message}`, { cause: error });
  }
}
