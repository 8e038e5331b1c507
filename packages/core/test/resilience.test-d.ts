import {
  createMemoryIdempotentRepository,
  type IdempotentRepository,
  RouteBuilder,
  type RouteDsl,
  type RoutekitEvents,
} from "@routekit/core";
import type { CircuitState } from "@routekit/core/internal";
import { describe, expectTypeOf, it } from "vitest";

class Typed extends RouteBuilder {
  override configure(): void {}
}
const builder = new Typed();

class OrderError extends Error {}

/** Holds calls that must not type-check; never run (they would also fail at runtime). */
const typesOnly = (_calls: () => void): void => undefined;

describe("the resilience verbs' types", () => {
  it("onException and errorHandler on a route keep the body type", () => {
    const route = builder
      .from<{ id: number }>("direct:a")
      .onException(OrderError, { handled: true, maximumRedeliveries: 2, step: (s) => s.to("mock:x") })
      .onException([TypeError, RangeError], { continued: "${header.soft}" })
      .errorHandler({ deadLetterUri: "mock:dead", useOriginalMessage: true });
    expectTypeOf(route).toEqualTypeOf<RouteDsl<{ id: number }>>();
    typesOnly(() => {
      // @ts-expect-error an option name is checked
      builder.from("direct:a").onException(OrderError, { maxRedeliveries: 2 });
    });
    typesOnly(() => {
      // @ts-expect-error errorHandler needs its options
      builder.from("direct:a").errorHandler();
    });
  });

  it("doTry may change the body, so the body type after it is unknown", () => {
    const route = builder.from<string>("direct:a").doTry(
      (t) => {
        expectTypeOf(t).toEqualTypeOf<RouteDsl<string>>();
        return t.transform((exchange) => exchange.body.length);
      },
      {
        catch: [
          [OrderError, (c) => c.setBody("caught")],
          [[TypeError, RangeError], (c) => c.to("mock:bad")],
        ],
        finally: (f) => f.to("mock:finally"),
      },
    );
    expectTypeOf(route).toEqualTypeOf<RouteDsl<unknown>>();
    typesOnly(() => {
      // @ts-expect-error a catch clause is a pair [ErrorClass, step]
      builder.from("direct:a").doTry((t) => t, { catch: [[OrderError]] });
    });
  });

  it("throttle keeps the body type in both modes", () => {
    expectTypeOf(builder.from<number>("direct:a").throttle(5, { periodMs: 1000 })).toEqualTypeOf<
      RouteDsl<number>
    >();
    expectTypeOf(builder.from<number>("direct:a").throttle(5)).toEqualTypeOf<RouteDsl<number>>();
    expectTypeOf(builder.from<number>("direct:a").throttle({ concurrent: 2, maxQueued: 10 })).toEqualTypeOf<
      RouteDsl<number>
    >();
    typesOnly(() => {
      // @ts-expect-error the concurrent mode takes no second argument
      builder.from("direct:a").throttle({ concurrent: 2 }, { periodMs: 5 });
    });
  });

  it("circuitBreaker types its step with the body and returns unknown", () => {
    const route = builder.from<string>("direct:a").circuitBreaker(
      (step) => {
        expectTypeOf(step).toEqualTypeOf<RouteDsl<string>>();
        return step.to("direct:service");
      },
      { failureThreshold: 3, resetTimeout: 1000, fallback: (fallback) => fallback.setBody("cached") },
    );
    expectTypeOf(route).toEqualTypeOf<RouteDsl<unknown>>();
    typesOnly(() => {
      // @ts-expect-error failureThreshold and resetTimeout are required
      builder.from("direct:a").circuitBreaker((step) => step, { failureThreshold: 3 });
    });
  });

  it("circuit-state-changed is a typed event", () => {
    expectTypeOf<RoutekitEvents["circuit-state-changed"]>().toEqualTypeOf<{
      routeId: string;
      step: string;
      from: CircuitState;
      to: CircuitState;
    }>();
  });

  it("idempotentConsumer keys are typed from the body and the repository interface is checked", () => {
    const route = builder
      .from<{ orderId: string }>("direct:a")
      .idempotentConsumer((exchange) => exchange.body.orderId, {
        repository: createMemoryIdempotentRepository(),
      });
    expectTypeOf(route).toEqualTypeOf<RouteDsl<{ orderId: string }>>();
    builder.from("direct:a").idempotentConsumer("${header.id}", { skipDuplicate: false, maximumSize: 10 });
    const custom: IdempotentRepository = {
      add: async () => true,
      contains: () => false,
      remove: () => undefined,
    };
    builder.from("direct:a").idempotentConsumer("${body}", { repository: custom });
    typesOnly(() => {
      // @ts-expect-error a key function returns a string or a number
      builder.from<{ id: object }>("direct:a").idempotentConsumer((exchange) => exchange.body.id);
    });
  });
});
