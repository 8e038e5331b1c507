import type { Budget } from "@routekit/core";
import { optionError } from "./http-fetch/option-checks.js";

/**
 * The `budget` option of a tool: a budget from `createBudget`, or undefined for the shared one.
 * Checked by shape (no runtime import of core), so the engine modules a worker loads stay small.
 */
export function budgetOption(value: unknown, toolName: string): Budget | undefined {
  if (value === undefined) return undefined;
  const candidate = value as Partial<Budget> | null;
  if (
    typeof value !== "object" ||
    candidate === null ||
    typeof candidate.run !== "function" ||
    typeof candidate.close !== "function" ||
    typeof candidate.stats !== "function"
  ) {
    throw optionError(toolName, "budget", "a budget made by createBudget()", value);
  }
  return value as Budget;
}
