import type { Observable } from "rxjs";
import { RoutekitError } from "../errors/errors.js";
import type { Exchange, RouteContext } from "../model/exchange.js";
import { describeValue } from "../support/describe-value.js";
import { lazyModule } from "../support/lazy-module.js";

declare module "../model/exchange.js" {
  interface RouteContext {
    /**
     * The exchanges reaching the endpoint `uri`, as an rxjs Observable: each exchange as it
     * enters a route consuming from `uri` (before the route's first step), for routes added before
     * or after. Unsubscribing removes its listeners; stopping the context completes it. Throws for
     * a bad URI or an endpoint nothing can consume from (`mock:`, `log:`).
     */
    observe<TBody = unknown>(uri: string): Observable<Exchange<TBody>>;
  }
}

// rxjs resolves to the same CommonJS build for `require` and `import` under Node: loading it on
// the first `observe` keeps importing the core cheap and gives the user's rxjs classes.
const rxjs = lazyModule<typeof import("rxjs")>("rxjs", import.meta.url);

/** `context.observe(uri)`: see its declaration above. */
export function observeEndpoint<TBody>(context: RouteContext, uri: string): Observable<Exchange<TBody>> {
  if (typeof uri !== "string" || uri.trim() === "") {
    throw new RoutekitError(
      "URI_INVALID",
      `context.observe() expects an endpoint URI like 'direct:orders' (found ${describeValue(uri)})`,
    );
  }
  const endpoint = context.endpoint(uri);
  if (endpoint.createConsumer === undefined) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `context.observe('${uri}'): no route can consume from this endpoint, so no exchange ever reaches one (a mock: endpoint records what is sent to it: context.endpoint('${uri}'))`,
    );
  }
  const { Observable } = rxjs();
  return new Observable<Exchange<TBody>>((subscriber) => {
    if (context.state === "stopped") {
      subscriber.complete();
      return;
    }
    // Whether each route consumes from the endpoint, by route id (forgotten when routes go).
    const matches = new Map<string, boolean>();
    const consumesFromIt = (routeId: string): boolean => {
      let match = matches.get(routeId);
      if (match === undefined) {
        const from = context.routes().find((route) => route.id === routeId)?.from;
        match = from !== undefined && context.endpoint(from) === endpoint;
        matches.set(routeId, match);
      }
      return match;
    };
    const offs = [
      context.events.on("exchange-created", ({ exchange, routeId }) => {
        if (consumesFromIt(routeId)) subscriber.next(exchange as Exchange<TBody>);
      }),
      context.events.on("route-removed", ({ routeId }) => matches.delete(routeId)),
      context.events.on("context-stopped", () => subscriber.complete()),
    ];
    return () => {
      for (const off of offs) off();
    };
  });
}
