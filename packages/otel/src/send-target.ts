import { type Attributes, SpanKind } from "@opentelemetry/api";
import type { SendStep } from "@routekit/core/internal";
import { ROUTEKIT, SEMCONV } from "./attribute-names.js";
import { endpointNames, type TraitsOf } from "./endpoint-names.js";
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

function stepAttributes(step: SendStep): Attributes {
  return { [ROUTEKIT.routeId]: step.routeId, [ROUTEKIT.stepPath]: step.path };
}

/**
 * A send by `step` to `uri`: a `to` step's, named when the route is built, or one destination of
 * a `toD` or `recipientList` step, named when the step first sends there; undefined for `log:`,
 * which sends nothing.
 */
export function stepTarget(step: SendStep, uri: string, traitsOf: TraitsOf): SendTarget | undefined {
  return uriTarget(uri, stepAttributes(step), traitsOf);
}

/**
 * A send to `uri` with `base` among its attributes: a `to` step's (with its route and step), or
 * one made through the context from user code (with none); undefined for `log:`.
 */
export function uriTarget(uri: string, base: Attributes, traitsOf: TraitsOf): SendTarget | undefined {
  const endpoint = endpointNames(uri, traitsOf);
  if (!endpoint.traced) return undefined;
  const httpClient = endpoint.http === "client";
  const attributes: Attributes = { ...base, [ROUTEKIT.endpointUri]: endpoint.address };
  if (!httpClient) {
    if (endpoint.system !== undefined) attributes[SEMCONV.messagingSystem] = endpoint.system;
    attributes[SEMCONV.messagingDestinationName] = endpoint.path;
    attributes[SEMCONV.messagingOperationType] = "send";
    attributes[SEMCONV.messagingOperationName] = "send";
  }
  return {
    name: `send ${endpoint.address}`,
    kind: httpClient ? SpanKind.CLIENT : SpanKind.PRODUCER,
    attributes,
    carried: !endpoint.sameExchange,
    prefixes: [endpoint.injectPrefix],
    activate: !endpoint.inProcess,
  };
}
