import { LlmToolsError } from "../errors.js";
import { describe } from "../tool-input.js";

/** The error for a bad option: names the tool, the option, what was expected and what was found. */
export function optionError(
  toolName: string,
  option: string,
  expected: string,
  found: unknown,
): LlmToolsError {
  return new LlmToolsError(
    "TOOL_OPTION_INVALID",
    toolName,
    `${toolName}: option '${option}' must be ${expected} (found ${describe(found)})`,
  );
}

/** An optional integer option of at least `minimum`; the default when absent. */
export function integerOption(
  value: unknown,
  option: string,
  minimum: number,
  fallback: number,
  toolName: string,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < minimum) {
    throw optionError(toolName, option, `an integer >= ${minimum}`, value);
  }
  return value;
}

/** An optional boolean option; the default when absent. */
export function booleanOption(value: unknown, option: string, fallback: boolean, toolName: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw optionError(toolName, option, "true or false", value);
  return value;
}
