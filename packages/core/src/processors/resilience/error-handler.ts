import type { ErrorHandlerDefinition } from "../../model/route-definition.js";
import { defineVerb } from "../../dsl/verbs.js";
import { checkErrorHandlerOptions } from "../../dsl/error-handling-options.js";
import { onRouteItself, routeName } from "./on-exception.js";

/** Options of `errorHandler(...)`: redelivery plus an optional dead letter channel. */
export type ErrorHandlerOptions = ErrorHandlerDefinition;

declare module "../../dsl/route-dsl.js" {
  interface RouteDsl<TBody> {
    /**
     * Route-local default error handler (replaces the builder-wide one for this route): redelivery
     * for errors no onException clause matches, then the dead letter channel when `deadLetterUri` is set.
     */
    errorHandler(options: ErrorHandlerOptions): RouteDsl<TBody>;
  }
}

defineVerb("errorHandler", (recorder, options: ErrorHandlerOptions) => {
  onRouteItself(recorder, "errorHandler");
  recorder.route.errorHandling.errorHandler = checkErrorHandlerOptions(
    { where: routeName(recorder), verb: "errorHandler" },
    options,
  );
  return undefined;
});
