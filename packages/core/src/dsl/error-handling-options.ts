import { RoutekitError } from "../errors/errors.js";
import {
  type ErrorHandlerDefinition,
  type OnExceptionDefinition,
  REDELIVERY_OPTION_NAMES,
} from "../model/route-definition.js";
import {
  checkBoolean,
  checkFlag,
  checkNumber,
  checkOptionalBlock,
  checkOptionalPredicate,
  checkOptionKeys,
  type OptionSite,
  optionError,
} from "./option-checks.js";
import type { RouteDsl } from "./route-dsl.js";

/** Options of `onException` (builder-wide and on a route). */
export type OnExceptionOptions = Omit<OnExceptionDefinition, "errors" | "steps"> & {
  /** Steps to run on the failed exchange. */
  step?: (route: RouteDsl<unknown>) => unknown;
};

const ON_EXCEPTION_OPTIONS = [
  ...REDELIVERY_OPTION_NAMES,
  "handled",
  "continued",
  "useOriginalMessage",
  "step",
  "onWhen",
] as const;

const ERROR_HANDLER_OPTIONS = [...REDELIVERY_OPTION_NAMES, "deadLetterUri", "useOriginalMessage"] as const;

function checkRedelivery(site: OptionSite, options: Record<string, unknown>): void {
  checkNumber(site, "maximumRedeliveries", options.maximumRedeliveries, {
    minimum: 0,
    integer: true,
    alsoAllowed: -1,
  });
  checkNumber(site, "redeliveryDelay", options.redeliveryDelay, { minimum: 0 });
  checkNumber(site, "backOffMultiplier", options.backOffMultiplier, { minimum: 1 });
  checkBoolean(site, "useExponentialBackOff", options.useExponentialBackOff);
  checkNumber(site, "maximumRedeliveryDelay", options.maximumRedeliveryDelay, { minimum: 0 });
  checkOptionalPredicate(site, "retryWhile", options.retryWhile);
}

/** Validates `onException` options (route-local and builder-wide); throws a clear ROUTE_INVALID error. */
export function checkOnExceptionOptions(site: OptionSite, options: unknown): OnExceptionOptions {
  const checked = checkOptionKeys<Record<string, unknown>>(site, options, ON_EXCEPTION_OPTIONS);
  checkRedelivery(site, checked);
  checkFlag(site, "handled", checked.handled);
  checkFlag(site, "continued", checked.continued);
  if (checked.handled === true && checked.continued === true) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `${site.where}: ${site.verb}() options 'handled' and 'continued' are both true: choose one ` +
        "(handled stops the route and replies without the error; continued resumes at the next step)",
    );
  }
  checkBoolean(site, "useOriginalMessage", checked.useOriginalMessage);
  checkOptionalBlock(site, "step", checked.step);
  checkOptionalPredicate(site, "onWhen", checked.onWhen);
  return checked as OnExceptionOptions;
}

/** Validates `errorHandler` options (route-local and builder-wide); throws a clear ROUTE_INVALID error. */
export function checkErrorHandlerOptions(site: OptionSite, options: unknown): ErrorHandlerDefinition {
  if (options === undefined) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `${site.where}: ${site.verb}() expects options, e.g. { deadLetterUri: "seda:dead", maximumRedeliveries: 3 }`,
    );
  }
  const checked = checkOptionKeys<Record<string, unknown>>(site, options, ERROR_HANDLER_OPTIONS);
  checkRedelivery(site, checked);
  const uri = checked.deadLetterUri;
  if (uri !== undefined && (typeof uri !== "string" || uri.trim() === "")) {
    throw optionError(site, "deadLetterUri", "an endpoint URI like 'seda:dead' or 'mock:dead'", uri);
  }
  checkBoolean(site, "useOriginalMessage", checked.useOriginalMessage);
  return { ...checked } as ErrorHandlerDefinition;
}
