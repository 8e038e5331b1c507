import { createContext, type RouteContext, type RoutesFunction } from "@routekit/core";
import { type HttpPluginOptions, httpPlugin, httpServerOf } from "../../src/index.js";

/** A started context with the HTTP plugin and the given routes, and its server's base URL. */
export interface Served {
  readonly context: RouteContext;
  readonly url: string;
}

/** Starts a context serving `routes` on 127.0.0.1 (ephemeral port). */
export async function serve(routes: RoutesFunction, options: HttpPluginOptions = {}): Promise<Served> {
  const context = createContext({ logLevel: "error" });
  context.use(httpPlugin(options));
  await context.addRoutes(routes);
  await context.start();
  return { context, url: httpServerOf(context).url };
}
