import type { RouteDefinition } from "@routekit/core/internal";
import { inProcessUri, type TraitsOf } from "./endpoint-names.js";

/** Core steps that run no code of their own beyond what their definition holds. */
const PLAIN_STEPS = new Set([
  "to",
  "toD",
  "wireTap",
  "enrich",
  "multicast",
  "setBody",
  "transform",
  "setHeader",
  "removeHeader",
  "setProperty",
  "log",
  "stop",
  "filter",
  "choice",
  "split",
  "loop",
  "doTry",
  "aggregate",
  "delay",
  "throttle",
]);

const MAX_DEPTH = 24;

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null;
}

function readsContext(value: unknown, depth: number, traitsOf: TraitsOf): boolean {
  if (typeof value === "function") return true;
  if (typeof value !== "object" || value === null) return false;
  if (depth > MAX_DEPTH || !isPlain(value)) return true;
  const record = value as Record<string, unknown>;
  if (typeof record.type === "string" && !Array.isArray(value)) {
    if (!PLAIN_STEPS.has(record.type)) return true;
    if ("uri" in record && !inProcessUri(record.uri, traitsOf)) return true;
    if (Array.isArray(record.uris) && !record.uris.every((uri) => inProcessUri(uri, traitsOf))) return true;
  }
  for (const key in record) {
    if (key !== "uri" && key !== "uris" && readsContext(record[key], depth + 1, traitsOf)) return true;
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
