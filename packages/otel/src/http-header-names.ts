import type { HTTP_HEADERS } from "@routekit/http";

/**
 * The http: component's header names spans read: its contract's (`HTTP_HEADERS`), checked at
 * compile time (imported type-only: this package does not load @routekit/http).
 */
export const HTTP = {
  /** Server: the request method. */
  method: "http.method",
  /** The reply status a route answered with, and the status a client call received. */
  status: "http.status",
} as const satisfies Pick<typeof HTTP_HEADERS, "method" | "status">;
