import { defineVerb, type Recorder } from "../dsl/verbs.js";
import { RoutekitError } from "../errors/errors.js";

/** Verbs that configure the route (its id, its error handling) refuse to be called inside a block. */
export function onRouteItself(recorder: Recorder, verb: string, hint = ""): void {
  if (!recorder.isRoot) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `Route '${recorder.route.id || recorder.route.from}': ${verb}() belongs on the route itself, not inside a block${hint}`,
    );
  }
}

export const routeIdVerb = defineVerb({
  record: (recorder, id: string) => {
    onRouteItself(recorder, "routeId");
    if (typeof id !== "string" || id.trim() === "") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route from '${recorder.route.from}': routeId() expects a non-empty string (found ${JSON.stringify(id)})`,
      );
    }
    recorder.route.id = id;
    return undefined;
  },
});

export const descriptionVerb = defineVerb({
  record: (recorder, text: string) => {
    onRouteItself(recorder, "description");
    recorder.route.description = String(text);
    return undefined;
  },
});
