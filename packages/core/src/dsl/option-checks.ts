import { RoutekitError } from "../errors/errors.js";
import type { ExpressionInput, PredicateInput, StepDefinition } from "../model/route-definition.js";
import { describeValue } from "../support/describe-value.js";
import { didYouMean } from "../support/did-you-mean.js";
import { truncateForMessage } from "../support/truncate-for-message.js";
import type { Recorder } from "./verbs.js";

/** Where a verb was called, for error messages: `Route 'orders': throttle()`. */
export interface OptionSite {
  /** `Route 'orders'` (the from URI while the route has no id yet) or `RouteBuilder`. */
  readonly where: string;
  readonly verb: string;
}

/** `Route 'orders'`, or the route's `from` URI while it has no id yet. */
export function where(recorder: Recorder): string {
  return `Route '${recorder.route.id || recorder.route.from}'`;
}

/** The site of a verb recorded on a route. */
export function siteOf(recorder: Recorder, verb: string): OptionSite {
  return { where: where(recorder), verb };
}

/** The site of a verb on a route given by its id and from URI. */
export function routeSite(route: { id: string; from: string }, verb: string): OptionSite {
  return { where: `Route '${route.id || route.from}'`, verb };
}

/** A ROUTE_INVALID error naming the route and the verb: `Route 'r': split() <message>`. */
export function invalid(site: OptionSite, message: string): RoutekitError {
  return new RoutekitError("ROUTE_INVALID", `${site.where}: ${site.verb}() ${message}`);
}

/** `Route 'r': throttle() option 'periodMs' must be <expected> (found <value>)`. */
export function optionError(
  site: OptionSite,
  option: string,
  expected: string,
  value: unknown,
): RoutekitError {
  return invalid(site, `option '${option}' must be ${expected} (found ${describeValue(value)})`);
}

/** Checks an options object: undefined is `{}`, anything else must be a plain object with known keys. */
export function checkOptionKeys<TOptions extends object = Record<string, unknown>>(
  site: OptionSite,
  options: unknown,
  known: readonly string[],
): Partial<TOptions> {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw invalid(
      site,
      `expects an options object, found ${describeValue(options)} (options: ${known.join(", ")})`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw invalid(
        site,
        `has no option '${truncateForMessage(key)}'${didYouMean(key, known)}; options: ${known.join(", ")}`,
      );
    }
  }
  return options as Partial<TOptions>;
}

/** Records a nested block given as a callback `(route) => route...`. */
export function recordBlock(
  site: OptionSite,
  recorder: Recorder,
  step: unknown,
  what = "step",
): StepDefinition[] {
  if (typeof step !== "function") {
    throw invalid(
      site,
      `expects ${what} as a callback like (route) => route.to("mock:x"), found ${describeValue(step)}`,
    );
  }
  return recorder.block(step as (route: never) => unknown);
}

/** An optional block callback `(route) => route...` given as an option: checked, not recorded. */
export function checkOptionalBlock(site: OptionSite, option: string, value: unknown): void {
  if (value === undefined || typeof value === "function") return;
  throw optionError(site, option, 'a block callback like (route) => route.to("mock:x")', value);
}

/** An expression: simple-language text or a function of the exchange. */
export function checkExpression(site: OptionSite, value: unknown, what: string): ExpressionInput {
  if (typeof value !== "string" && typeof value !== "function") {
    throw invalid(
      site,
      `expects ${what} (a string or a function of the exchange), found ${describeValue(value)}`,
    );
  }
  return value as ExpressionInput;
}

/** A predicate: simple-language text or a function of the exchange. */
export function checkPredicate(site: OptionSite, value: unknown, what = "a predicate"): PredicateInput {
  return checkExpression(site, value, what) as PredicateInput;
}

/** An optional predicate option (a simple-language string or a function). */
export function checkOptionalPredicate(site: OptionSite, option: string, value: unknown): void {
  if (value === undefined || typeof value === "string" || typeof value === "function") return;
  throw optionError(site, option, "a predicate (a string or a function of the exchange)", value);
}

/** An optional option that is true, false or a predicate (a string or a function). */
export function checkFlag(site: OptionSite, option: string, value: unknown): void {
  if (["undefined", "boolean", "string", "function"].includes(typeof value)) return;
  throw optionError(
    site,
    option,
    "true, false or a predicate (a string or a function of the exchange)",
    value,
  );
}

/** An optional function option. */
export function checkFunction<TFunction>(
  site: OptionSite,
  option: string,
  value: unknown,
): TFunction | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function")
    throw invalid(site, `option '${option}' must be a function, found ${describeValue(value)}`);
  return value as TFunction;
}

/** An optional boolean option. */
export function checkBoolean(site: OptionSite, option: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === "boolean") return value;
  throw invalid(site, `option '${option}' must be true or false, found ${describeValue(value)}`);
}

/** An optional positive number option (`integer` also requires a whole number). */
export function checkPositive(
  site: OptionSite,
  option: string,
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
    throw invalid(site, `option '${option}' must be ${kind}, found ${describeValue(value)}`);
  }
  return value;
}

/** An optional finite number at least `minimum` (an integer when asked). */
export function checkNumber(
  site: OptionSite,
  option: string,
  value: unknown,
  rule: { minimum: number; integer?: boolean; alsoAllowed?: number },
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && value === rule.alsoAllowed) return value;
  const integer = rule.integer === true;
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value < rule.minimum ||
    (integer && !Number.isInteger(value))
  ) {
    const kind = integer ? "an integer" : "a number";
    const also = rule.alsoAllowed === undefined ? "" : ` (or ${rule.alsoAllowed})`;
    throw optionError(site, option, `${kind} >= ${rule.minimum}${also}`, value);
  }
  return value;
}

/** Parts in flight when `parallel: true`: Camel's default thread pool size. */
export const DEFAULT_PARALLELISM = 10;

/** `parallel`: false/undefined = 1 (sequential), true = 10, or a positive integer bound. */
export function checkParallel(site: OptionSite, value: unknown): number {
  if (value === undefined || value === false) return 1;
  if (value === true) return DEFAULT_PARALLELISM;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  throw invalid(
    site,
    `option 'parallel' must be true, false or a positive integer, found ${describeValue(value)}`,
  );
}
