import type { Recorder } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import type { ExpressionInput, PredicateInput, StepDefinition } from "../../model/route-definition.js";
import { describeValue } from "../../support/describe-value.js";
import { didYouMean } from "../../support/nearest.js";

/** `Route 'orders'`, or the route's `from` URI while it has no id yet. */
export function where(recorder: Recorder): string {
  return `Route '${recorder.route.id || recorder.route.from}'`;
}

/** A ROUTE_INVALID error naming the route and the verb. */
export function invalid(recorder: Recorder, verb: string, message: string): RoutekitError {
  return new RoutekitError("ROUTE_INVALID", `${where(recorder)}: ${verb}() ${message}`);
}

/** Checks an options object: undefined is `{}`, anything else must be a plain object with known keys. */
export function checkOptions(
  recorder: Recorder,
  verb: string,
  options: unknown,
  known: readonly string[],
): Record<string, unknown> {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw invalid(recorder, verb, `expects an options object, found ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw invalid(
        recorder,
        verb,
        `has no option '${key}'${didYouMean(key, known)}; options: ${known.join(", ")}`,
      );
    }
  }
  return options as Record<string, unknown>;
}

/** Records a nested block given as a callback `(route) => route...`. */
export function checkStep(recorder: Recorder, verb: string, step: unknown, what = "step"): StepDefinition[] {
  if (typeof step !== "function") {
    throw invalid(
      recorder,
      verb,
      `expects ${what} as a callback like (route) => route.to("mock:x"), found ${describeValue(step)}`,
    );
  }
  return recorder.block(step as (route: never) => unknown);
}

/** An expression: simple-language text or a function of the exchange. */
export function checkExpression(
  recorder: Recorder,
  verb: string,
  value: unknown,
  what: string,
): ExpressionInput {
  if (typeof value !== "string" && typeof value !== "function") {
    throw invalid(
      recorder,
      verb,
      `expects ${what} (a string or a function of the exchange), found ${describeValue(value)}`,
    );
  }
  return value as ExpressionInput;
}

/** A predicate: simple-language text or a function of the exchange. */
export function checkPredicate(
  recorder: Recorder,
  verb: string,
  value: unknown,
  what = "a predicate",
): PredicateInput {
  return checkExpression(recorder, verb, value, what) as PredicateInput;
}

/** An optional function option. */
export function checkFunction<TFunction>(
  recorder: Recorder,
  verb: string,
  name: string,
  value: unknown,
): TFunction | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function")
    throw invalid(recorder, verb, `option '${name}' must be a function, found ${describeValue(value)}`);
  return value as TFunction;
}

/** An optional boolean option. */
export function checkBoolean(
  recorder: Recorder,
  verb: string,
  name: string,
  value: unknown,
): boolean | undefined {
  if (value === undefined || typeof value === "boolean") return value;
  throw invalid(recorder, verb, `option '${name}' must be true or false, found ${describeValue(value)}`);
}

/** An optional positive number option (`integer` also requires a whole number). */
export function checkPositive(
  recorder: Recorder,
  verb: string,
  name: string,
  value: unknown,
  integer = false,
): number | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== "number" ||
    !(value > 0) ||
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value))
  ) {
    const kind = integer ? "a positive integer" : "a positive number of milliseconds";
    throw invalid(recorder, verb, `option '${name}' must be ${kind}, found ${describeValue(value)}`);
  }
  return value;
}

/** Parts in flight when `parallel: true`: Camel's default thread pool size. */
export const DEFAULT_PARALLELISM = 10;

/** `parallel`: false/undefined = 1 (sequential), true = 10, or a positive integer bound. */
export function checkParallel(recorder: Recorder, verb: string, value: unknown): number {
  if (value === undefined || value === false) return 1;
  if (value === true) return DEFAULT_PARALLELISM;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  throw invalid(
    recorder,
    verb,
    `option 'parallel' must be true, false or a positive integer, found ${describeValue(value)}`,
  );
}
