import type { Exchange } from "@routekit/core";
import { optionError } from "../http-fetch/option-checks.js";

/**
 * What a tool step writes to the body: `"json"`, the tool's JSON text (what a model reads; the
 * default), or `"value"`, the value that text holds, for the next step of a pipeline.
 */
export type StepOutput = "json" | "value";

/** The `output` option of the json_path, regex_extract and math_eval steps. */
export interface StepOutputOption {
  /** `"json"` (default): the result as JSON text; `"value"`: the parsed value. */
  output?: StepOutput;
}

/**
 * Splits a step's options into its checked `output` (`"json"` when absent) and the tool's own
 * options. Options without an `output` key are passed on as they are (the same object).
 */
export function splitStepOutput<TOptions extends object>(
  options: TOptions & StepOutputOption,
  toolName: string,
): { output: StepOutput; toolOptions: TOptions } {
  if (typeof options !== "object" || options === null || !Object.hasOwn(options, "output")) {
    return { output: "json", toolOptions: options };
  }
  const { output, ...toolOptions } = options;
  if (output !== undefined && output !== "json" && output !== "value") {
    throw optionError(toolName, "output", '"json" or "value"', output);
  }
  return { output: output ?? "json", toolOptions: toolOptions as TOptions };
}

/** The body a step writes: the tool's JSON text as it is, or the value it holds. */
export function stepBody(text: string, output: StepOutput): unknown {
  return output === "value" ? JSON.parse(text) : text;
}

/**
 * Writes a tool's result to the body: at once when the tool ran on this thread (no promise on that
 * path), or when it settles when the tool went to a worker.
 */
export function writeBody<TResult>(
  exchange: Exchange,
  result: TResult | Promise<TResult>,
  toBody: (result: TResult) => unknown,
): void | Promise<void> {
  if (!(result instanceof Promise)) {
    exchange.body = toBody(result);
    return;
  }
  return result.then((value) => {
    exchange.body = toBody(value);
  });
}
