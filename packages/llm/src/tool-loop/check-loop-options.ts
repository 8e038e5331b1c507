import { LlmError } from "../errors.js";
import { checkPrices, priceOf } from "../governance/model-prices.js";
import { checkBudget } from "../governance/run-budget.js";
import type { RunToolLoopOptions } from "./tool-loop-types.js";

/** Throws `OPTION_INVALID` naming the first option of `runToolLoop` that is malformed. */
export function checkLoopOptions(options: RunToolLoopOptions): void {
  if (typeof options !== "object" || options === null) {
    throw invalid("options", "an object { model, tools, input }", typeof options);
  }
  const { model, tools, input } = options;
  if (typeof model !== "object" || model === null || typeof model.generate !== "function") {
    throw invalid("model", "a LanguageModel (an object with generate(request))", describe(model));
  }
  if (typeof tools !== "object" || tools === null || typeof tools.get !== "function") {
    throw invalid("tools", "a Map of tool name to Tool", describe(tools));
  }
  if (typeof input === "string") {
    if (input === "") throw invalid("input", "a non-empty prompt or a message list", "an empty string");
  } else if (!Array.isArray(input) || input.length === 0) {
    throw invalid("input", "a non-empty prompt or a message list", describe(input));
  }
  const { maxIterations, toolTimeoutMs, timeoutMs, maxOutputRetries } = options;
  if (maxOutputRetries !== undefined && (!Number.isInteger(maxOutputRetries) || maxOutputRetries < 0)) {
    throw invalid("maxOutputRetries", "an integer >= 0", String(maxOutputRetries));
  }
  if (maxIterations !== undefined && (!Number.isInteger(maxIterations) || maxIterations < 1)) {
    throw invalid("maxIterations", "an integer >= 1", String(maxIterations));
  }
  if (toolTimeoutMs !== undefined && !(Number.isFinite(toolTimeoutMs) && toolTimeoutMs > 0)) {
    throw invalid("toolTimeoutMs", "a number of milliseconds > 0", String(toolTimeoutMs));
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw invalid("timeoutMs", "a number of milliseconds > 0", String(timeoutMs));
  }
  checkGovernance(options, "runToolLoop");
}

/** Throws `OPTION_INVALID` for a malformed budget, price table or tool result limit (both loops). */
export function checkGovernance(options: Omit<RunToolLoopOptions, "input">, where: string): void {
  checkBudget(options, where);
  if (options.prices !== undefined) checkPrices(options.prices, where);
  const { model } = options;
  if (
    options.maxCostUsd !== undefined &&
    priceOf(options.prices, model.provider, model.model) === undefined
  ) {
    const priced = Object.keys(options.prices ?? {});
    throw new LlmError(
      "OPTION_INVALID",
      `${where}: option 'maxCostUsd' needs a price for '${model.provider}/${model.model}' in prices; priced models: ${priced.join(", ") || "(none)"}`,
    );
  }
  const { maxToolResultChars } = options;
  if (maxToolResultChars !== undefined && (!Number.isInteger(maxToolResultChars) || maxToolResultChars < 1)) {
    throw new LlmError(
      "OPTION_INVALID",
      `${where}: option 'maxToolResultChars' must be an integer >= 1, got ${String(maxToolResultChars)}`,
    );
  }
}

function invalid(option: string, expected: string, found: string): LlmError {
  return new LlmError("OPTION_INVALID", `runToolLoop: option '${option}' must be ${expected}, got ${found}`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : "an array";
  return typeof value === "object" ? "an object of another shape" : typeof value;
}
