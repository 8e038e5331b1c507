import { type Exchange, RouteBuilder, type RouteDsl } from "@routekit/core";
import { describe, expectTypeOf, it } from "vitest";
import "./support/shout-step.js";

class Typed extends RouteBuilder {
  override configure(): void {}
}
const builder = new Typed();

describe("the DSL's types follow the data", () => {
  it("from<T> sets the body type and process keeps it", () => {
    const route = builder.from<{ id: number }>("direct:a").process((exchange) => {
      expectTypeOf(exchange.body).toEqualTypeOf<{ id: number }>();
    });
    expectTypeOf(route).toEqualTypeOf<RouteDsl<{ id: number }>>();
  });

  it("transform and setBody with a function change it; async results are awaited", () => {
    expectTypeOf(
      builder.from<number>("direct:a").transform((exchange) => String(exchange.body)),
    ).toEqualTypeOf<RouteDsl<string>>();
    expectTypeOf(builder.from<number>("direct:a").setBody(async () => [1, 2])).toEqualTypeOf<
      RouteDsl<number[]>
    >();
    expectTypeOf(builder.from<number>("direct:a").setBody("${body}")).toEqualTypeOf<RouteDsl<unknown>>();
  });

  it("a type-guard filter narrows", () => {
    const isText = (exchange: Exchange<string | number>): exchange is Exchange<string> =>
      typeof exchange.body === "string";
    expectTypeOf(builder.from<string | number>("direct:a").filter(isText)).toEqualTypeOf<RouteDsl<string>>();
    expectTypeOf(builder.from<number>("direct:a").filter("${body} > 1")).toEqualTypeOf<RouteDsl<number>>();
  });

  it("steps added by declaration merging are typed", () => {
    expectTypeOf(builder.from<number>("direct:a").shout()).toEqualTypeOf<RouteDsl<string>>();
    // @ts-expect-error the option type is checked
    builder.from("direct:a").shout({ suffix: 1 });
  });

  it("to keeps the body type unless told otherwise", () => {
    expectTypeOf(builder.from<number>("direct:a").to("mock:x")).toEqualTypeOf<RouteDsl<number>>();
    expectTypeOf(builder.from<number>("direct:a").to<string>("direct:reply")).toEqualTypeOf<
      RouteDsl<string>
    >();
  });
});
