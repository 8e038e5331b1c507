import type { RouteContext } from "@routekit/core";
import { HttpError } from "./http-error.js";
import type { HttpServer } from "./http-server.js";

const SERVICE_KEY = "routekit.http.server";
const servers = new WeakMap<RouteContext, HttpServer>();

/** Records the server `httpPlugin` created for a context (one per context). */
export function attachServer(context: RouteContext, create: () => HttpServer): HttpServer {
  if (servers.has(context)) {
    throw new HttpError(
      "HTTP_SERVER_STATE",
      "httpPlugin is already installed in this context: one HTTP server serves every http: route",
    );
  }
  const server = context.service(SERVICE_KEY, create);
  servers.set(context, server);
  return server;
}

/** The server of a context, for the component; names the endpoint when the plugin is missing. */
export function serverOf(context: RouteContext, uri: string): HttpServer {
  const server = servers.get(context);
  if (server === undefined) {
    throw new HttpError(
      "HTTP_SERVER_STATE",
      `Endpoint '${uri}' needs the HTTP server: install it with context.use(httpPlugin({ port }))`,
    );
  }
  return server;
}

/** The shared HTTP server of a context (its `url` and `address` once started). */
export function httpServerOf(context: RouteContext): HttpServer {
  const server = servers.get(context);
  if (server === undefined) {
    throw new HttpError(
      "HTTP_SERVER_STATE",
      "This context has no HTTP server: install it with context.use(httpPlugin({ port }))",
    );
  }
  return server;
}
