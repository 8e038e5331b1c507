import { RoutekitError } from "../../errors/errors.js";
import { describeValue } from "../../support/describe-value.js";
import { didYouMean } from "../../support/nearest.js";

/** Where a verb was called, for error messages: `Route 'orders': throttle()`. */
export interface OptionSite {
  /** `Route 'orders'` or `RouteBuilder`. */
  readonly where: string;
  readonly verb: string;
}

/** A clear ROUTE_INVALID error: `Route 'r': throttle() option 'periodMs' must be ... (found ...)`. */
export function optionError(
  site: OptionSite,
  option: string,
  expected: string,
  value: unknown,
): RoutekitError {
  return new RoutekitError(
    "ROUTE_INVALID",
    `${site.where}: ${site.verb}() option '${option}' must be ${expected} (found ${describeValue(value)})`,
  );
}

/** Checks that `options` is a plain object whose keys are all known; returns it. */
export function checkOptionKeys<TOptions extends object>(
  site: OptionSite,
  options: unknown,
  known: readonly string[],
): Partial<TOptions> {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `${site.where}: ${site.verb}() expects an options object with ${known.join(", ")} (found ${describeValue(options)})`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${site.where}: ${site.verb}() has no option '${key}'${didYouMean(key, known)}; options: ${known.join(", ")}`,
      );
    }
  }
  return options as Partial<TOptions>;
}

/** A finite number at least `minimum` (an integer when asked), or undefined when absent. */
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

/** A boolean, or undefined when absent. */
export function checkBoolean(site: OptionSite, option: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === "boolean") return value;
  throw optionError(site, option, "true or false", value);
}

/** A boolean or a predicate (a simple-language string or a function), or undefined when absent. */
export function checkFlag(site: OptionSite, option: string, value: unknown): void {
  if (
    value === undefined ||
    typeof value === "boolean" ||
    typeof value === "string" ||
    typeof value === "function"
  ) {
    return;
  }
  throw optionError(
    site,
    option,
    "true, false or a predicate (a string or a function of the exchange)",
    value,
  );
}

/** A predicate (a simple-language string or a function), or undefined when absent. */
export function checkPredicate(site: OptionSite, option: string, value: unknown): void {
  if (value === undefined || typeof value === "string" || typeof value === "function") return;
  throw optionError(site, option, "a predicate (a string or a function of the exchange)", value);
}

/** A block callback `(route) => route...`, or undefined when absent. */
export function checkStep(site: OptionSite, option: string, value: unknown): void {
  if (value === undefined || typeof value === "function") return;
  throw optionError(site, option, 'a block callback like (route) => route.to("mock:x")', value);
}

/** `Route 'orders'` (or the from URI when the route has no id yet). */
export function routeSite(route: { id: string; from: string }, verb: string): OptionSite {
  return { where: `Route '${route.id || route.from}'`, verb };
}
