import { RoutekitError } from "../errors/errors.js";
import type { ErrorClass, OnExceptionDefinition, StepDefinition } from "../model/route-definition.js";
import { describeValue } from "../support/describe-value.js";
import { checkOnExceptionOptions, type OnExceptionOptions } from "./error-handling-options.js";

export type { OnExceptionOptions } from "./error-handling-options.js";

/** True for `Error` and its subclasses. */
export function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === "function" && (value === Error || value.prototype instanceof Error);
}

function describeNotAClass(value: unknown): string {
  if (typeof value === "function") return `function ${value.name || "(anonymous)"} (not an Error class)`;
  return describeValue(value);
}

/**
 * Turns onException arguments into a clause definition, validating them; shared by the
 * builder-wide and route-local forms. `where` names the caller in errors (`Route 'orders'`).
 */
export function onExceptionDefinition(
  recorder: { block(callback: (route: never) => unknown): StepDefinition[] },
  errors: ErrorClass | ErrorClass[],
  options: OnExceptionOptions = {},
  where = "RouteBuilder",
): OnExceptionDefinition {
  const list = Array.isArray(errors) ? errors : [errors];
  const notAClass = list.find((error) => !isErrorClass(error));
  if (list.length === 0 || notAClass !== undefined) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `${where}: onException() expects an Error class or a non-empty array of Error classes ` +
        `(e.g. onException(TypeError, {...})), found ${list.length === 0 ? "an empty array" : describeNotAClass(notAClass)}`,
    );
  }
  const { step, ...rest } = checkOnExceptionOptions({ where, verb: "onException" }, options);
  return {
    ...rest,
    errors: list,
    steps: step === undefined ? undefined : recorder.block(step as (route: never) => unknown),
  };
}
