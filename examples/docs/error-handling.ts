// The code of docs/guide/error-handling.md; run by examples/test/docs-examples.test.ts.
import { createContext, type Exchange, RouteBuilder } from "@routekit/core";

class ValidationError extends Error {}
class StockError extends Error {}
class CardDeclinedError extends Error {}
class TimeoutError extends Error {}
class NetworkError extends Error {}

function validate(exchange: Exchange): void {
  const order = exchange.body as { quantity?: unknown };
  if (typeof order.quantity !== "number") throw new ValidationError("quantity must be a number");
}

// #region order-routes
class OrderRoutes extends RouteBuilder {
  configure() {
    // Builder-wide: applies to every route of this builder.
    this.errorHandler({ deadLetterUri: "seda:dead", maximumRedeliveries: 2, redeliveryDelay: 500 });
    this.onException(ValidationError, {
      handled: true,
      step: (s) => s.setBody("invalid: ${exception.message}"),
    });

    this.from("direct:orders")
      .routeId("orders")
      // Route-local: only this route, matched before the builder-wide clauses.
      .onException(StockError, {
        maximumRedeliveries: 5,
        redeliveryDelay: 100,
        backOffMultiplier: 2,
        continued: true,
      })
      .process(validate)
      .to("direct:reserve-stock")
      .to("mock:confirmed");
  }
}
// #endregion order-routes

class PaymentRoutes extends RouteBuilder {
  configure() {
    // #region do-try
    this.from("direct:payments")
      .doTry((t) => t.to("direct:charge-card").setBody("charged"), {
        catch: [
          [CardDeclinedError, (c) => c.setBody("declined: ${exception.message}")],
          [[TimeoutError, NetworkError], (c) => c.to("seda:retry-later")],
        ],
        finally: (f) => f.to("log:payments"),
      })
      .to("mock:receipt");
    // #endregion do-try
  }
}

/** What the two routes did with each error: replies, attempts and what reached each mock. */
export interface ErrorHandlingOutcome {
  invalidReply: unknown;
  stockAttempts: number;
  confirmed: unknown[];
  dead: unknown[];
  goodCard: unknown;
  badCard: unknown;
  receipts: unknown[];
  retryLater: unknown[];
}

/** Runs both routes: a handled validation error, a continued stock error, a caught card error. */
export async function main(): Promise<ErrorHandlingOutcome> {
  const context = createContext({ logLevel: "off" });
  let stockAttempts = 0;
  await context.addRoutes((r) => {
    r.from("direct:reserve-stock").process(() => {
      stockAttempts += 1;
      if (stockAttempts < 3) throw new StockError("no stock yet");
    });
    r.from<{ card: string }>("direct:charge-card").process((exchange) => {
      if (exchange.body.card === "bad") throw new CardDeclinedError("card 4000 declined");
    });
    r.from("seda:dead").to("mock:dead");
    r.from("seda:retry-later").to("mock:retry-later");
  });
  await context.addRoutes(new OrderRoutes());
  await context.addRoutes(new PaymentRoutes());
  await context.start();

  const invalidReply = await context.request("direct:orders", { quantity: "two" });
  // The called route has no error handling of its own, so it is not redelivered (see the page);
  // the orders route's clause marks the stock error continued and the exchange is confirmed.
  await context.request("direct:orders", { quantity: 2 });
  const goodCard = await context.request("direct:payments", { card: "good" });
  const badCard = await context.request("direct:payments", { card: "bad" });
  await context.stop();
  return {
    invalidReply,
    stockAttempts,
    confirmed: context.endpoint("mock:confirmed").receivedBodies,
    dead: context.endpoint("mock:dead").receivedBodies,
    goodCard,
    badCard,
    receipts: context.endpoint("mock:receipt").receivedBodies,
    retryLater: context.endpoint("mock:retry-later").receivedBodies,
  };
}
