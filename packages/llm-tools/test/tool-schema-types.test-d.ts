import type { RouteDsl } from "@routekit/core";
import type { Tool } from "@routekit/llm";
import type { SchemaOutput } from "@routekit/llm/tool";
import { describe, expectTypeOf, it } from "vitest";
import {
  type HttpTool,
  httpTool,
  type JSON_PATH_INPUT_SCHEMA,
  MATH_EVAL_INPUT_SCHEMA,
} from "../src/index.js";

// Type-level only: the functions below are checked by the compiler, never run.

describe("the tools' schemas type the routes that use them", () => {
  it("types a tool route's body from a tool's exported input schema, and the step after it", () => {
    expectTypeOf<SchemaOutput<typeof MATH_EVAL_INPUT_SCHEMA>>().toHaveProperty("expression");
    expectTypeOf<SchemaOutput<typeof MATH_EVAL_INPUT_SCHEMA>["expression"]>().toEqualTypeOf<string>();
    expectTypeOf<SchemaOutput<typeof JSON_PATH_INPUT_SCHEMA>["path"]>().toEqualTypeOf<string | undefined>();
    const typed = (route: RouteDsl<unknown>) => {
      route
        .asLlmTool("calc", { description: "Calculates.", input: MATH_EVAL_INPUT_SCHEMA })
        .process((exchange) => {
          expectTypeOf(exchange.body.expression).toEqualTypeOf<string>();
          // @ts-expect-error: no such argument
          exchange.body.expr;
        });
      expectTypeOf(
        route.asLlmTool("calc", { description: "Calculates.", input: MATH_EVAL_INPUT_SCHEMA }).mathEval(),
      ).toEqualTypeOf<RouteDsl<string>>();
    };
    expectTypeOf(typed).toBeFunction();
  });

  it("makes httpTool a Tool", () => {
    const typed = () => {
      const tool = httpTool({
        name: "get_order",
        description: "An order.",
        method: "GET",
        url: "https://api.example.com/orders/{id}",
      });
      expectTypeOf(tool).toEqualTypeOf<HttpTool>();
      expectTypeOf(tool).toMatchTypeOf<Tool>();
      // @ts-expect-error: the url is required
      httpTool({ name: "x", description: "x" });
    };
    expectTypeOf(typed).toBeFunction();
  });
});
