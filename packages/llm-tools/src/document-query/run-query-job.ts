import type { BudgetTask } from "@routekit/core";
import { runToolJob } from "../tool-budget.js";
import type { ResolvedDocumentQueryLimits } from "./document-query-options.js";

/**
 * Hands a json_path or xpath query to a worker of the tool's budget, bounded by the tool's
 * `timeoutMs` (from submission), the budget's memory limit and `maxOutputBytes`.
 */
export function runQueryJob<TInput, TResult>(
  toolName: string,
  task: BudgetTask<TInput, TResult>,
  input: TInput,
  limits: ResolvedDocumentQueryLimits,
  signal: AbortSignal | undefined,
): Promise<TResult> {
  return runToolJob({
    toolName,
    task,
    input,
    budget: limits.budget,
    timeoutMs: limits.timeoutMs,
    timeoutOption: "timeoutMs",
    activity: "the query",
    maxOutputBytes: limits.maxOutputBytes,
    signal,
  });
}
