import { RoutekitError } from "../../errors/errors.js";
import { type OnExceptionOptions, onExceptionDefinition } from "../../dsl/error-handling.js";
import type { ErrorClass } from "../../model/route-definition.js";
import { defineVerb, type Recorder } from "../../dsl/verbs.js";

declare module "../../dsl/route-dsl.js" {
  interface RouteDsl<TBody> {
    /**
     * Route-local exception clause: applies to this route only and is matched before the
     * builder-wide clauses. Only on the route itself, not inside a block.
     */
    onException(errors: ErrorClass | ErrorClass[], options?: OnExceptionOptions): RouteDsl<TBody>;
  }
}

/** `Route 'orders'`, or the from URI while the route has no id yet. */
export function routeName(recorder: Recorder): string {
  return `Route '${recorder.route.id || recorder.route.from}'`;
}

/** Error handling belongs to the route, not to a nested block. */
export function onRouteItself(recorder: Recorder, verb: string): void {
  if (!recorder.isRoot) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `${routeName(recorder)}: ${verb}() belongs on the route itself, not inside a block ` +
        "(use doTry inside a block to handle errors of some steps only)",
    );
  }
}

defineVerb("onException", (recorder, errors: ErrorClass | ErrorClass[], options?: OnExceptionOptions) => {
  onRouteItself(recorder, "onException");
  recorder.route.errorHandling.onException.push(
    onExceptionDefinition(recorder, errors, options, routeName(recorder)),
  );
  return undefined;
});
