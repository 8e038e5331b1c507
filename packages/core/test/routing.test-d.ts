import { type Exchange, groupedBodies, RouteBuilder, type RouteDsl } from "@routekit/core";
import { describe, expectTypeOf, it } from "vitest";

class Typed extends RouteBuilder {
  override configure(): void {}
}
const builder = new Typed();

describe("the routing verbs' types follow the data", () => {
  it("choice: branches that keep the body keep its type; otherwise closes the choice", () => {
    const route = builder
      .from<{ kind: string }>("direct:orders")
      .choice((c) =>
        c.when("${body.kind} == 'book'", (r) => r.to("seda:books")).otherwise((r) => r.to("log:other")),
      );
    expectTypeOf(route).toEqualTypeOf<RouteDsl<{ kind: string }>>();
    // Type-only checks below are never run: the route would be refused at runtime too.
    void (() =>
      builder.from("direct:a").choice((c) =>
        c
          .when("true", (r) => r)
          .otherwise((r) => r)
          // @ts-expect-error otherwise() comes last
          .when("true", (r) => r),
      ));
  });

  it("choice: branch results join; without otherwise the unchanged body may continue", () => {
    const closed = builder
      .from<number>("direct:a")
      .choice((c) =>
        c.when("${body} > 1", (r) => r.transform(() => "big")).otherwise((r) => r.transform(() => false)),
      );
    expectTypeOf(closed).toEqualTypeOf<RouteDsl<string | boolean>>();
    const open = builder
      .from<number>("direct:a")
      .choice((c) => c.when("${body} > 1", (r) => r.transform(() => "big")));
    expectTypeOf(open).toEqualTypeOf<RouteDsl<number | string>>();
    builder.from<number>("direct:a").choice((c) =>
      c.when(
        (exchange) => {
          expectTypeOf(exchange.body).toEqualTypeOf<number>();
          return exchange.body > 1;
        },
        (r) => r,
      ),
    );
  });

  it("split: parts are typed from the expression; the body type stays unless aggregated", () => {
    const kept = builder.from<{ lines: string[] }>("direct:a").split(
      (exchange) => exchange.body.lines,
      (part) =>
        part.process((exchange) => {
          expectTypeOf(exchange.body).toEqualTypeOf<string>();
        }),
    );
    expectTypeOf(kept).toEqualTypeOf<RouteDsl<{ lines: string[] }>>();
    const aggregated = builder.from<string>("direct:a").split(
      (exchange) => exchange.body.split("\n"),
      (part) => part,
      { aggregate: groupedBodies<string>() },
    );
    expectTypeOf(aggregated).toEqualTypeOf<RouteDsl<string[]>>();
    // @ts-expect-error parallel is a boolean or a number
    void (() => builder.from("direct:a").split("${body}", (part) => part, { parallel: "4" }));
  });

  it("aggregate: the strategy's result type continues", () => {
    const route = builder
      .from<number>("direct:a")
      .aggregate("${header.key}", { strategy: groupedBodies<number>(), completionSize: 3 });
    expectTypeOf(route).toEqualTypeOf<RouteDsl<number[]>>();
    builder.from<number>("direct:a").aggregate("${header.key}", {
      strategy: groupedBodies<number>(),
      completionPredicate: (exchange) => {
        expectTypeOf(exchange).toEqualTypeOf<Exchange<number[]>>();
        return exchange.body.length > 2;
      },
    });
    // @ts-expect-error a strategy is required
    void (() => builder.from("direct:a").aggregate("${header.key}", { completionSize: 3 }));
  });

  it("multicast, recipientList, enrich: replies change the body type as declared", () => {
    expectTypeOf(builder.from<number>("direct:a").multicast(["mock:a", "mock:b"])).toEqualTypeOf<
      RouteDsl<number>
    >();
    expectTypeOf(
      builder.from<number>("direct:a").multicast(["mock:a"], { aggregate: groupedBodies() }),
    ).toEqualTypeOf<RouteDsl<unknown[]>>();
    expectTypeOf(builder.from<number>("direct:a").recipientList("${header.to}")).toEqualTypeOf<
      RouteDsl<number>
    >();
    expectTypeOf(builder.from<number>("direct:a").enrich<string>("direct:lookup")).toEqualTypeOf<
      RouteDsl<string>
    >();
    const merged = builder
      .from<number>("direct:a")
      .enrich<string, { id: number; name: string }>("direct:lookup", (original, resource) => {
        expectTypeOf(original.body).toEqualTypeOf<number>();
        expectTypeOf(resource.body).toEqualTypeOf<string>();
        return { ...original, body: { id: original.body, name: resource.body } };
      });
    expectTypeOf(merged).toEqualTypeOf<RouteDsl<{ id: number; name: string }>>();
  });

  it("wireTap, loop and delay keep the body type", () => {
    expectTypeOf(builder.from<Date>("direct:a").wireTap("mock:tap")).toEqualTypeOf<RouteDsl<Date>>();
    expectTypeOf(builder.from<Date>("direct:a").loop(3, (r) => r)).toEqualTypeOf<RouteDsl<Date>>();
    expectTypeOf(
      builder.from<Date>("direct:a").loop(
        (exchange) => exchange.body.getTime() > 0,
        (r) => r,
      ),
    ).toEqualTypeOf<RouteDsl<Date>>();
    expectTypeOf(builder.from<Date>("direct:a").delay(100)).toEqualTypeOf<RouteDsl<Date>>();
    // @ts-expect-error a loop condition is a count, an expression or a predicate
    void (() => builder.from("direct:a").loop({ times: 3 }, (r) => r));
  });
});
