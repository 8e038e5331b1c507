import { defineStep, EFFECT_KEY_HEADER, type Exchange } from "@routekit/core";
import { type HttpFetchOptions, resolveHttpFetchOptions } from "../http-fetch/http-fetch-options.js";
import { runHttpFetch } from "../http-fetch/run-http-fetch.js";

/**
 * The `.httpFetch(options)` step: GETs the URL the body names (`{url}`, JSON text of it, or the
 * URL as plain text), sets the body to the response text and the headers `llm.http_fetch.status`,
 * `llm.http_fetch.bytes` and `llm.http_fetch.truncated`. Options are checked when the route is added.
 * On a durable run's tool call the call's effect key (`routekit.effectKey`) goes out as `Idempotency-Key`.
 */
export const httpFetch = defineStep("httpFetch", (options: HttpFetchOptions = {}) => {
  resolveHttpFetchOptions(options);
  return async (exchange: Exchange): Promise<void> => {
    const effectKey = exchange.headers[EFFECT_KEY_HEADER];
    const result = await runHttpFetch(exchange.body, options, exchange.signal, effectKey);
    exchange.body = result.text;
    exchange.headers["llm.http_fetch.status"] = result.headers["llm.http_fetch.status"];
    exchange.headers["llm.http_fetch.bytes"] = result.headers["llm.http_fetch.bytes"];
    exchange.headers["llm.http_fetch.truncated"] = result.headers["llm.http_fetch.truncated"];
  };
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** http_fetch as a step: the body names the URL; the response text becomes the body. */
    httpFetch(options?: HttpFetchOptions): RouteDsl<string>;
  }
}
