import type { RouteDsl } from "@routekit/core";
import { describe, expectTypeOf, it } from "vitest";
import type {} from "../src/index.js";

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
});
