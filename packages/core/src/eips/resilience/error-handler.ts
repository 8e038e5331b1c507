import { checkErrorHandlerOptions } from "../../dsl/error-handling-options.js";
import { where } from "../../dsl/option-checks.js";
import { defineVerb } from "../../dsl/verbs.js";
import type { ErrorHandlerDefinition } from "../../model/route-definition.js";
import { onRouteItself } from "../route-verbs.js";
import { USE_DO_TRY } from "./on-exception.js";

/** Options of `errorHandler(...)`: redelivery plus an optional dead letter channel. */
export type ErrorHandlerOptions = ErrorHandlerDefinition;

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Route-local default error handler (replaces the builder-wide one for this route): redelivery
     * for errors no onException clause matches, then the dead letter channel when `deadLetterUri` is set.
     */
    errorHandler(options: ErrorHandlerOptions): RouteDsl<TBody>;
  }
}

export const errorHandlerVerb = defineVerb({
  record: (recorder, options: ErrorHandlerOptions) => {
    onRouteItself(recorder, "errorHandler", USE_DO_TRY);
    recorder.route.errorHandling.errorHandler = checkErrorHandlerOptions(
      { where: where(recorder), verb: "errorHandler" },
      options,
    );
    return undefined;
  },
});
