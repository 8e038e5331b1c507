import { parseUri } from "@routekit/core/internal";
import type { HeaderPrefix } from "./header-carrier.js";

/** What a span says about an endpoint, from its URI (options are left out: they may hold secrets). */
export interface EndpointNames {
  readonly scheme: string;
  /** `scheme:path` without the query and without user info. */
  readonly address: string;
  readonly path: string;
  /** `messaging.system`: `rabbitmq` for amqp:, `routekit` for the in-process components. */
  readonly system: string | undefined;
  /** http:/https: URIs with a host are client calls (`to("https://host/x")`). */
  readonly httpClient: boolean;
  /** Where trace context goes in the headers when sending to this endpoint. */
  readonly injectPrefix: HeaderPrefix;
}

const IN_PROCESS = new Set(["direct", "seda", "timer", "mock", "log"]);

export function endpointNames(uri: string): EndpointNames {
  const { scheme, path } = parseUri(uri);
  const http = scheme === "http" || scheme === "https";
  // User info may be a credential (`https://TOKEN@host`, `//user:password@host`), whatever the scheme.
  const clean = path.replace(/^\/\/[^/?#]*@/, "//");
  return {
    scheme,
    address: `${scheme}:${clean}`,
    path: clean,
    system: scheme === "amqp" ? "rabbitmq" : IN_PROCESS.has(scheme) ? "routekit" : undefined,
    httpClient: http && path.startsWith("//"),
    injectPrefix: http ? "http.request.header." : "",
  };
}
