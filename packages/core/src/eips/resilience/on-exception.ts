import { type OnExceptionOptions, onExceptionDefinition } from "../../dsl/error-handling.js";
import { where } from "../../dsl/option-checks.js";
import { defineVerb } from "../../dsl/verbs.js";
import type { ErrorClass } from "../../model/route-definition.js";
import { onRouteItself } from "../route-verbs.js";

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Route-local exception clause: applies to this route only and is matched before the
     * builder-wide clauses. Only on the route itself, not inside a block.
     */
    onException(errors: ErrorClass | ErrorClass[], options?: OnExceptionOptions): RouteDsl<TBody>;
  }
}

/** What `onException` and `errorHandler` add when called inside a block. */
export const USE_DO_TRY = " (use doTry inside a block to handle errors of some steps only)";

export const onExceptionVerb = defineVerb({
  record: (recorder, errors: ErrorClass | ErrorClass[], options?: OnExceptionOptions) => {
    onRouteItself(recorder, "onException", USE_DO_TRY);
    recorder.route.errorHandling.onException.push(
      onExceptionDefinition(recorder, errors, options, where(recorder)),
    );
    return undefined;
  },
});
