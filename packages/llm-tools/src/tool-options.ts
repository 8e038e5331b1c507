import type { Budget } from "@routekit/core";
import type { OptionCheck, OptionsSite } from "@routekit/core/internal";
import { LlmToolsError } from "./errors.js";

/** Where a tool's options are checked: messages start with the tool's name, errors are TOOL_OPTION_INVALID. */
export function toolOptionsSite(toolName: string): OptionsSite {
  return { where: toolName, error: (message) => new LlmToolsError("TOOL_OPTION_INVALID", toolName, message) };
}

/** A budget made by `createBudget`, checked by shape. */
export function isBudgetShape(value: unknown): value is Budget {
  const candidate = value as Partial<Budget> | null;
  return (
    typeof value === "object" &&
    candidate !== null &&
    typeof candidate.run === "function" &&
    typeof candidate.close === "function" &&
    typeof candidate.stats === "function"
  );
}

/** The `budget` option of a tool: a budget from `createBudget`, or absent for the shared one. */
export const BUDGET_OPTION = {
  type: "custom",
  expected: "a budget made by createBudget()",
  check: isBudgetShape,
} as const satisfies OptionCheck;

/** A whole-number limit of at least 1 with its default. */
export function limitOption(fallback: number, max?: number) {
  return { type: "integer", min: 1, default: fallback, ...(max === undefined ? {} : { max }) } as const;
}

/** An undici dispatcher option: anything with a `dispatch` function. */
export const DISPATCHER_OPTION = {
  type: "custom",
  expected: "an undici Dispatcher (an object with a dispatch method)",
  check: (value) =>
    typeof value === "object" && value !== null && typeof Reflect.get(value, "dispatch") === "function",
} as const satisfies OptionCheck;
