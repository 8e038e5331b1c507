import { createContext, type Exchange, RouteBuilder } from "@routekit/core";
import { type Observable, of, Subject } from "rxjs";
import { describe, expectTypeOf, it } from "vitest";

class Typed extends RouteBuilder {
  override configure(): void {}
}
const builder = new Typed();

describe("Observables in the DSL's types", () => {
  it("from(observable$) takes the body type from the Observable", () => {
    builder.from(of({ id: 1 })).process((exchange) => {
      expectTypeOf(exchange.body).toEqualTypeOf<{ id: number }>();
    });
    builder.from(new Subject<string>(), { bufferSize: 10 }).process((exchange) => {
      expectTypeOf(exchange.body).toEqualTypeOf<string>();
    });
    // @ts-expect-error bufferSize is a number
    builder.from(of(1), { bufferSize: "10" });
  });

  it("context.observe<T>(uri) is an Observable of exchanges of T", () => {
    const context = createContext();
    expectTypeOf(context.observe<{ id: number }>("direct:a")).toEqualTypeOf<
      Observable<Exchange<{ id: number }>>
    >();
    expectTypeOf(context.observe("direct:a")).toEqualTypeOf<Observable<Exchange<unknown>>>();
  });
});
