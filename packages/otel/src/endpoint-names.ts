import type { ComponentTraits } from "@routekit/core/internal";
import { parseUri } from "@routekit/core/internal";
import type { HeaderPrefix } from "./header-carrier.js";

/**
 * What a span says about an endpoint, from its URI (options are left out: they may hold secrets)
 * and the traits its component declares (`Component.traits`): no scheme is named here, so a new
 * component is traced by declaring its traits.
 */
export interface EndpointNames {
  readonly scheme: string;
  /** `scheme:path` without the query and without user info. */
  readonly address: string;
  readonly path: string;
  /** `messaging.system`: the component's (`rabbitmq` for amqp:, `routekit` for the in-process components). */
  readonly system: string | undefined;
  /** An HTTP endpoint: its routes are servers, its sends client calls. */
  readonly http: "client" | "server" | undefined;
  /** Nothing outside routekit reads the current context while it sends. */
  readonly inProcess: boolean;
  /** A send hands the exchange itself to the consuming route (no header carries the trace). */
  readonly sameExchange: boolean;
  /** Whether a send to it gets a span (not for `log:`). */
  readonly traced: boolean;
  /** Where trace context goes in the headers when sending to this endpoint. */
  readonly injectPrefix: HeaderPrefix;
  /** Where a route consuming from it finds the trace context its message carried. */
  readonly extractPrefix: HeaderPrefix;
}

/** How the otel plugin learns an endpoint's traits: `context.componentTraits`, once installed. */
export type TraitsOf = (uri: string) => ComponentTraits | undefined;

export function endpointNames(uri: string, traitsOf: TraitsOf): EndpointNames {
  const { scheme, path } = parseUri(uri);
  // User info may be a credential (`https://TOKEN@host`, `//user:password@host`), whatever the scheme.
  const clean = path.replace(/^\/\/[^/?#]*@/, "//");
  const traits = traitsOf(uri);
  return {
    scheme,
    address: `${scheme}:${clean}`,
    path: clean,
    system: traits?.messagingSystem,
    http: traits?.http,
    inProcess: traits?.inProcess === true,
    sameExchange: traits?.sameExchange === true,
    traced: traits?.traced !== false,
    injectPrefix: traits?.headerPrefixes?.sent ?? "",
    extractPrefix: traits?.headerPrefixes?.received ?? "",
  };
}

/** Whether `uri` (maybe a template, maybe not a URI at all) names an in-process endpoint. */
export function inProcessUri(uri: unknown, traitsOf: TraitsOf): boolean {
  if (typeof uri !== "string" || uri.indexOf(":") <= 0) return false;
  try {
    return traitsOf(uri)?.inProcess === true;
  } catch {
    return false;
  }
}
