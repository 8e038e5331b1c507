import { RouteBuilder } from "@routekit/core";

// #region order-routes
/** Orders come in on direct:orders; books go to a queue, everything else to a log. */
export class OrderRoutes extends RouteBuilder {
  configure() {
    this.from("direct:orders")
      .routeId("orders")
      .setHeader("kind", "${body.kind}")
      .choice((c) =>
        c.when("${header.kind} == 'book'", (r) => r.to("seda:books")).otherwise((r) => r.to("log:other")),
      )
      .to("mock:done");

    // The queue's consumer: runs on its own, one exchange at a time.
    this.from("seda:books").routeId("books").log("book order: ${body.title}").to("mock:books");
  }
}
// #endregion
