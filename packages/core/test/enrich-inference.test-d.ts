import { type Exchange, RouteBuilder, type RouteDsl } from "@routekit/core";
import { describe, expectTypeOf, it } from "vitest";

class Typed extends RouteBuilder {
  override configure(): void {}
}
const builder = new Typed();

interface Order {
  readonly sku: string;
}

describe("enrich infers the body type from its strategy", () => {
  it("from the body the strategy returns, with the resource typed on its parameter", () => {
    const priced = builder
      .from<Order>("direct:order")
      .enrich("direct:price", (original, resource: Exchange<number>) => ({
        body: { ...original.body, price: resource.body },
      }));
    expectTypeOf(priced).toEqualTypeOf<RouteDsl<{ price: number; sku: string }>>();
  });

  it("with new headers too", () => {
    const tagged = builder.from<Order>("direct:order").enrich("direct:tag", (original, resource) => ({
      body: [original.body.sku, String(resource.body)] as const,
      headers: { ...original.headers, tagged: true },
    }));
    expectTypeOf(tagged).toEqualTypeOf<RouteDsl<readonly [string, string]>>();
  });

  it("from an exchange the strategy returns (original or resource)", () => {
    const taken = builder
      .from<Order>("direct:order")
      .enrich("direct:lookup", (_original, resource: Exchange<Date>) => resource);
    expectTypeOf(taken).toEqualTypeOf<RouteDsl<Date>>();
    const kept = builder.from<Order>("direct:order").enrich("direct:lookup", (original) => original);
    expectTypeOf(kept).toEqualTypeOf<RouteDsl<Order>>();
  });

  it("without a strategy the reply's type is named, as before", () => {
    expectTypeOf(builder.from<Order>("direct:order").enrich<number>("direct:price")).toEqualTypeOf<
      RouteDsl<number>
    >();
  });

  it("refuses a strategy whose result has no body", () => {
    // @ts-expect-error the strategy must return { body, headers? } or an exchange
    void (() => builder.from<Order>("direct:order").enrich("direct:price", () => ({ price: 1 })));
  });
});
