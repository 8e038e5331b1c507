import { RoutekitError } from "../errors/errors.js";
import { defineVerb, type Recorder } from "../dsl/verbs.js";

function onRouteItself(recorder: Recorder, verb: string): void {
  if (!recorder.isRoot) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `Route '${recorder.route.id || recorder.route.from}': ${verb}() belongs on the route itself, not inside a block`,
    );
  }
}

defineVerb("routeId", (recorder, id: string) => {
  onRouteItself(recorder, "routeId");
  if (typeof id !== "string" || id.trim() === "") {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `Route from '${recorder.route.from}': routeId() expects a non-empty string (found ${JSON.stringify(id)})`,
    );
  }
  recorder.route.id = id;
  return undefined;
});

defineVerb("description", (recorder, text: string) => {
  onRouteItself(recorder, "description");
  recorder.route.description = String(text);
  return undefined;
});
