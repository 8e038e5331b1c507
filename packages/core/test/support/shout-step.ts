// A DSL step defined outside the core package, the way other packages add verbs.
import { defineStep, type Exchange } from "@routekit/core";

export interface ShoutOptions {
  suffix?: string;
}

export const shout = defineStep("shout", (options: ShoutOptions = {}) => (exchange: Exchange) => {
  exchange.body = `${String(exchange.body).toUpperCase()}${options.suffix ?? "!"}`;
});

export const shoutLater = defineStep("shoutLater", (delayMs: number) => async (exchange: Exchange) => {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  exchange.body = `${String(exchange.body).toUpperCase()} (after ${delayMs} ms)`;
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    shout(options?: ShoutOptions): RouteDsl<string>;
    shoutLater(delayMs: number): RouteDsl<string>;
  }
}
