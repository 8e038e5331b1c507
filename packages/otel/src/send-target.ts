import { type Attributes, SpanKind } from "@opentelemetry/api";
import type { SendStep } from "@routekit/core";
import { ROUTEKIT, SEMCONV } from "./attribute-names.js";
import { endpointNames } from "./endpoint-names.js";
import type { HeaderPrefix } from "./header-carrier.js";

/** What a send's span says and how its trace context travels, fixed once per step (or context) and URI. */
export interface SendTarget {
  readonly name: string;
  readonly kind: SpanKind;
  readonly attributes: Attributes;
  /** Whether the trace context must ride in the headers (not for `direct:`, whose route reads the exchange). */
  readonly carried: boolean;
  /** Where in the headers it goes. */
  readonly prefixes: readonly HeaderPrefix[];
  /** Whether the send runs with its span's context current (a client outside routekit may read it). */
  readonly activate: boolean;
}

/** Schemes whose consumer gets the same exchange in-process: no headers need to carry the trace. */
const SAME_EXCHANGE = new Set(["direct", "mock"]);
/** Schemes routekit runs in-process: nothing reads the current context while they send. */
const IN_PROCESS = new Set(["direct", "seda", "mock"]);

function stepAttributes(step: SendStep): Attributes {
  return { [ROUTEKIT.routeId]: step.routeId, [ROUTEKIT.stepPath]: step.path };
}

/**
 * A send by `step` to `uri`: a `to` step's, named when the route is built, or one destination of
 * a `toD` or `recipientList` step, named when the step first sends there; undefined for `log:`,
 * which sends nothing.
 */
export function stepTarget(step: SendStep, uri: string): SendTarget | undefined {
  return uriTarget(uri, stepAttributes(step));
}

/**
 * A send to `uri` with `base` among its attributes: a `to` step's (with its route and step), or
 * one made through the context from user code (with none); undefined for `log:`.
 */
export function uriTarget(uri: string, base: Attributes): SendTarget | undefined {
  const endpoint = endpointNames(uri);
  if (endpoint.scheme === "log") return undefined;
  const attributes: Attributes = { ...base, [ROUTEKIT.endpointUri]: endpoint.address };
  if (!endpoint.httpClient) {
    if (endpoint.system !== undefined) attributes[SEMCONV.messagingSystem] = endpoint.system;
    attributes[SEMCONV.messagingDestinationName] = endpoint.path;
    attributes[SEMCONV.messagingOperationType] = "send";
    attributes[SEMCONV.messagingOperationName] = "send";
  }
  return {
    name: `send ${endpoint.address}`,
    kind: endpoint.httpClient ? SpanKind.CLIENT : SpanKind.PRODUCER,
    attributes,
    carried: !SAME_EXCHANGE.has(endpoint.scheme),
    prefixes: [endpoint.injectPrefix],
    activate: !IN_PROCESS.has(endpoint.scheme),
  };
}
