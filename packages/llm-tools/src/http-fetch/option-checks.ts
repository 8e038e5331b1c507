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

/** Refuses keys outside `known`, naming the unknown key and the valid ones. */
export function checkKnownOptions(options: object, known: readonly string[], toolName: string): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new LlmToolsError(
        "TOOL_OPTION_INVALID",
        toolName,
        `${toolName}: unknown option '${key}' (expected one of ${known.join(", ")})`,
      );
    }
  }
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

/** An optional undici dispatcher option: anything with a `dispatch` function. */
export function dispatcherOption<TDispatcher>(
  value: unknown,
  option: string,
  toolName: string,
): TDispatcher | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || typeof Reflect.get(value, "dispatch") !== "function") {
    throw optionError(toolName, option, "an undici Dispatcher (an object with a dispatch method)", value);
  }
  return value as TDispatcher;
}
