import type { StepDefinition } from "@routekit/core";
import type { RouteDefinition } from "@routekit/core/internal";
import { stepShape } from "@routekit/core/internal";
import { inProcessUri, type TraitsOf } from "./endpoint-names.js";

const MAX_DEPTH = 24;

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null;
}

/**
 * What a step's shape says: it runs code of the route's author (or is a step no installed verb
 * compiles), or it sends to an endpoint whose component does not declare it in-process (a URI
 * template counts by its scheme). Its dead-letter endpoint is used only when it gives up.
 */
function stepMayReadContext(definition: StepDefinition, traitsOf: TraitsOf): boolean {
  const shape = stepShape(definition.type);
  if (shape === undefined || shape.runsUserCode) return true;
  try {
    const endpoints = shape.endpoints?.(definition) ?? [];
    return endpoints.some(
      (endpoint) => endpoint.role !== "dead-letter" && !inProcessUri(endpoint.uri, traitsOf),
    );
  } catch {
    // Not the step its type names (plain data of the author's with a `type` field): code, then.
    return true;
  }
}

function readsContext(value: unknown, depth: number, traitsOf: TraitsOf): boolean {
  if (typeof value === "function") return true;
  if (typeof value !== "object" || value === null) return false;
  if (depth > MAX_DEPTH || !isPlain(value)) return true;
  const record = value as Record<string, unknown>;
  if (typeof record.type === "string" && !Array.isArray(value)) {
    if (stepMayReadContext(record as unknown as StepDefinition, traitsOf)) return true;
  }
  for (const key in record) {
    if (readsContext(record[key], depth + 1, traitsOf)) return true;
  }
  return false;
}

/**
 * Whether a run of `route` may read the current OpenTelemetry context: when any of its steps or
 * error clauses holds code (a processor, an expression or predicate written as a function, an
 * aggregation strategy, a repository object), runs a step another package defines, or sends to
 * an endpoint whose component does not declare it in-process (an instrumented client reads it). A
 * route that cannot is run without entering its span's context: its sends and `direct:`
 * sub-routes find the span on the exchange.
 */
export function readsContextOf(route: RouteDefinition, traitsOf: TraitsOf): boolean {
  return readsContext(route.steps, 0, traitsOf) || readsContext(route.errorHandling, 0, traitsOf);
}

/** Whether running one step may read the current context (as `readsContextOf`, for one step). */
export function stepReadsContext(definition: unknown, traitsOf: TraitsOf): boolean {
  return readsContext(definition, 0, traitsOf);
}
