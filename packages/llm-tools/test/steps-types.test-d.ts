import type { RouteDsl } from "@routekit/core";
import { describe, expectTypeOf, it } from "vitest";
import { JsonPathTool } from "../src/index.js";

describe("tool step types", () => {
  it("every tool step is a typed DSL verb with its body type", () => {
    // Type-level only: the function is checked by the compiler, never run.
    const typed = (route: RouteDsl<unknown>) => {
      expectTypeOf(route.httpFetch({ hostAllowlist: ["example.com"] })).toEqualTypeOf<RouteDsl<string>>();
      expectTypeOf(route.jsonPath({ path: "$.a" })).toEqualTypeOf<RouteDsl<string>>();
      expectTypeOf(route.xpath({ xpath: "//a" })).toEqualTypeOf<RouteDsl<string | null>>();
      expectTypeOf(route.regexExtract({ pattern: "a", all: true })).toEqualTypeOf<RouteDsl<string>>();
      expectTypeOf(route.mathEval({ maxExpressionChars: 100 })).toEqualTypeOf<RouteDsl<string>>();
      expectTypeOf(route.tavilyWebSearch({ apiKey: "k" })).toEqualTypeOf<RouteDsl<string>>();
      // @ts-expect-error: unknown option
      route.jsonPath({ pth: "$" });
    };
    expectTypeOf(typed).toBeFunction();
  });

  it('output: "value" makes the body the parsed value, typed by the options', () => {
    // Type-level only: the function is checked by the compiler, never run.
    const typed = (route: RouteDsl<unknown>) => {
      expectTypeOf(route.jsonPath({ path: "$.a", output: "json" })).toEqualTypeOf<RouteDsl<string>>();
      expectTypeOf(route.jsonPath({ path: "$.a", output: "value" })).toEqualTypeOf<RouteDsl<unknown>>();
      expectTypeOf(route.jsonPath<{ sku: string }>({ path: "$.items[0]", output: "value" })).toEqualTypeOf<
        RouteDsl<{ sku: string }>
      >();
      expectTypeOf(route.mathEval({ output: "json" })).toEqualTypeOf<RouteDsl<string>>();
      expectTypeOf(route.mathEval({ output: "value" })).toEqualTypeOf<RouteDsl<unknown>>();
      expectTypeOf(route.mathEval<number>({ output: "value" })).toEqualTypeOf<RouteDsl<number>>();
      expectTypeOf(route.regexExtract({ pattern: "a", output: "json" })).toEqualTypeOf<RouteDsl<string>>();
      expectTypeOf(route.regexExtract({ pattern: "a", all: true, output: "value" })).toEqualTypeOf<
        RouteDsl<string[] | null>
      >();
      expectTypeOf(route.regexExtract({ pattern: "a", all: false, output: "value" })).toEqualTypeOf<
        RouteDsl<string | null>
      >();
      expectTypeOf(route.regexExtract({ pattern: "a", output: "value" })).toEqualTypeOf<
        RouteDsl<string | string[] | null>
      >();
      // the body type flows on to the next step
      route.jsonPath<{ sku: string }>({ path: "$.items[0]", output: "value" }).process((exchange) => {
        expectTypeOf(exchange.body).toEqualTypeOf<{ sku: string }>();
      });
      // @ts-expect-error: output is "json" or "value"
      route.jsonPath({ path: "$.a", output: "text" });
      // @ts-expect-error: the wrappers' tool contract is text; only the steps take output
      new JsonPathTool({ output: "value" });
    };
    expectTypeOf(typed).toBeFunction();
  });
});
