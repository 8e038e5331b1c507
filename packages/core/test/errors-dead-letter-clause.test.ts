import { createContext, RouteBuilder, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop({ timeoutMs: 1000 });
});

describe("dead-lettering from an onException clause", () => {
  it("the clause's dead letter route receives the failure's exception, route and step", async () => {
    context = createContext({ logLevel: "off" });
    await context.addRoutes(
      new (class extends RouteBuilder {
        override configure(): void {
          this.onException(Error, { handled: true, step: (s) => s.to("seda:dead") });
          this.from("direct:orders").routeId("orders").to("direct:reserve").to("mock:done");
          this.from("direct:reserve")
            .routeId("reserve")
            .process(() => {
              throw new RangeError("stock service down");
            }, "call-stock");
          this.from("seda:dead").routeId("dead").to("mock:dead");
        }
      })(),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:orders", { body: "order 7" });
    expect(exchange.error).toBeUndefined();
    const dead = context.endpoint("mock:dead");
    await dead.expectedMessageCount(1).assertIsSatisfied(2000);
    const [received] = dead.received;
    expect(received?.body).toBe("order 7");
    expect(received?.headers["routekit.exception"]).toBe("RangeError: stock service down");
    expect(received?.headers["routekit.failedRouteId"]).toBe("reserve");
    expect(received?.headers["routekit.failedStep"]).toMatch(/call-stock/);
    // The sub-route handled its failure, so the caller goes on.
    expect(context.endpoint("mock:done").received).toHaveLength(1);
  });

  it("a route-local clause that continues keeps the details readable in later steps", async () => {
    context = createContext({ logLevel: "off" });
    await context.addRoutes((r) => {
      r.from("direct:in")
        .routeId("pipeline")
        .onException(Error, { continued: true })
        .process(() => {
          throw new TypeError("bad price");
        }, "price")
        .setBody("${header.routekit.failedRouteId} / ${header.routekit.exception}");
    });
    await context.start();
    expect(await context.request("direct:in", "x")).toBe("pipeline / TypeError: bad price");
  });
});
