// The code of docs/guide/resilience-eips.md; run by examples/test/docs-examples.test.ts.
import "@routekit/amqp";
import {
  createContext,
  type IdempotentRepository as ExportedIdempotentRepository,
  RouteBuilder,
} from "@routekit/core";

class ThrottleRoutes extends RouteBuilder {
  configure() {
    // #region throttle
    this.from("seda:calls").throttle(10, { periodMs: 1000 }).to("direct:partner-api"); // rate
    this.from("seda:jobs").throttle({ concurrent: 4 }).to("direct:render"); // concurrency
    // #endregion throttle
  }
}

class CircuitBreakerRoutes extends RouteBuilder {
  configure() {
    // #region circuit-breaker
    this.from("direct:quote")
      .circuitBreaker((step) => step.to("direct:pricing-service"), {
        failureThreshold: 5,
        resetTimeout: 30_000,
        fallback: (fallback) => fallback.setBody("price unavailable: ${exception.message}"),
      })
      .to("mock:quoted");
    // #endregion circuit-breaker
  }
}

/** Needs a RabbitMQ broker: type-checked only. */
export class PaymentRoutes extends RouteBuilder {
  configure() {
    // #region idempotent-consumer
    this.from("amqp:queue:payments")
      .idempotentConsumer("${header.paymentId}")
      .to("direct:charge")
      .to("amqp:queue:charged");
    // #endregion idempotent-consumer
  }
}

// #region idempotent-repository
interface IdempotentRepository {
  add(key: string): boolean | Promise<boolean>; // false when the key is already there
  contains(key: string): boolean | Promise<boolean>;
  remove(key: string): void | Promise<void> | boolean | Promise<boolean>;
  confirm?(key: string): void | Promise<void>; // after a successful exchange
}
// #endregion idempotent-repository

/** The page's description of the interface and the exported one accept the same objects. */
export function sameRepository(repository: ExportedIdempotentRepository): IdempotentRepository {
  const described: IdempotentRepository = repository;
  const exported: ExportedIdempotentRepository = described;
  return exported;
}

/** What the throttled routes delivered and what the circuit breaker's fallback answered. */
export interface ResilienceOutcome {
  rendered: unknown[];
  partner: unknown[];
  quote: unknown;
  quoted: unknown[];
}

/** Runs the throttled routes and the circuit breaker's fallback. */
export async function main(): Promise<ResilienceOutcome> {
  const context = createContext({ logLevel: "off" });
  await context.addRoutes((r) => {
    r.from("direct:partner-api").to("mock:partner");
    r.from("direct:render").to("mock:rendered");
    r.from("direct:pricing-service").process(() => {
      throw new Error("pricing is down");
    });
  });
  await context.addRoutes(new ThrottleRoutes());
  await context.addRoutes(new CircuitBreakerRoutes());
  await context.start();

  for (const job of ["a", "b", "c"]) await context.send("seda:jobs", job);
  await context.send("seda:calls", "call");
  const rendered = context.endpoint("mock:rendered");
  rendered.expectedMessageCount(3);
  await rendered.assertIsSatisfied(5000);
  const partner = context.endpoint("mock:partner");
  partner.expectedMessageCount(1);
  await partner.assertIsSatisfied(5000);

  const quote = await context.request("direct:quote", 10);
  await context.stop();
  return {
    rendered: rendered.receivedBodies,
    partner: partner.receivedBodies,
    quote,
    quoted: context.endpoint("mock:quoted").receivedBodies,
  };
}
