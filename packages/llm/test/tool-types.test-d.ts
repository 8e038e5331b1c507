import type { RouteContext, RouteDsl } from "@routekit/core";
import { createTool, type Tool, type ToolResult, type ToolTypes, toTool } from "@routekit/llm";
import type { FromJsonSchema, FromToolParams, SchemaInput, SchemaOutput } from "@routekit/llm/tool";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";

// Type-level only: the functions below are checked by the compiler, never run.

const weatherInput = {
  type: "object",
  properties: {
    city: { type: "string", description: "The city to report on." },
    unit: { enum: ["celsius", "fahrenheit"], default: "celsius" },
  },
  required: ["city"],
  additionalProperties: false,
} as const;

const orderInput = z.object({ sku: z.string(), quantity: z.number().int().default(1) });

declare module "@routekit/llm" {
  interface LlmToolTypes {
    get_weather: ToolTypes<typeof weatherInput, string>;
  }
}

describe("types from a JSON Schema", () => {
  it("maps types, required and defaults, enum, const, anyOf, arrays and open objects", () => {
    expectTypeOf<SchemaOutput<typeof weatherInput>>().toEqualTypeOf<{
      city: string;
      unit: "celsius" | "fahrenheit";
    }>();
    expectTypeOf<SchemaInput<typeof weatherInput>>().toEqualTypeOf<{
      city: string;
      unit?: "celsius" | "fahrenheit";
    }>();
    expectTypeOf<FromJsonSchema<{ const: 42 }>>().toEqualTypeOf<42>();
    expectTypeOf<FromJsonSchema<{ type: readonly ["string", "null"] }>>().toEqualTypeOf<string | null>();
    expectTypeOf<
      FromJsonSchema<{ anyOf: readonly [{ type: "integer" }, { type: "boolean" }] }>
    >().toEqualTypeOf<number | boolean>();
    expectTypeOf<FromJsonSchema<{ type: "array"; items: { type: "string" } }>>().toEqualTypeOf<string[]>();
    expectTypeOf<
      FromJsonSchema<{ type: "object"; properties: { a: { type: "number" } }; required: readonly ["a"] }>
    >().toEqualTypeOf<{ a: number; [key: string]: unknown }>();
    expectTypeOf<FromJsonSchema<{ type: "object" }>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<FromJsonSchema<{ $ref: "#/definitions/x" }>>().toEqualTypeOf<unknown>();
  });

  it("maps a Standard Schema by its output (and input) type", () => {
    expectTypeOf<SchemaOutput<typeof orderInput>>().toEqualTypeOf<{ sku: string; quantity: number }>();
    expectTypeOf<SchemaInput<typeof orderInput>>().toEqualTypeOf<{
      sku: string;
      quantity?: number | undefined;
    }>();
  });

  it("maps the params shorthand by its declared types", () => {
    type Params = {
      query: { required: true };
      limit: { type: "integer"; default: 5 };
      tags: { type: "array"; items: { type: "string" } };
    };
    expectTypeOf<FromToolParams<Params>>().toEqualTypeOf<{ query: string; limit: number; tags?: string[] }>();
    expectTypeOf<FromToolParams<Params, "input">>().toEqualTypeOf<{
      query: string;
      limit?: number;
      tags?: string[];
    }>();
  });
});

describe("asLlmTool types the route body from its input", () => {
  it("takes a JSON Schema written inline or as const, a Standard Schema, or keeps from<T>()", () => {
    const typed = (route: RouteDsl<unknown>, typedRoute: RouteDsl<{ id: number }>) => {
      expectTypeOf(route.asLlmTool("get_weather", { description: "d", input: weatherInput })).toEqualTypeOf<
        RouteDsl<{ city: string; unit: "celsius" | "fahrenheit" }>
      >();
      // inline, no `as const` needed
      expectTypeOf(
        route.asLlmTool("n", {
          description: "d",
          input: {
            type: "object",
            properties: { n: { type: "number" } },
            required: ["n"],
            additionalProperties: false,
          },
        }),
      ).toEqualTypeOf<RouteDsl<{ n: number }>>();
      expectTypeOf(route.asLlmTool("order", { description: "d", input: orderInput })).toEqualTypeOf<
        RouteDsl<{ sku: string; quantity: number }>
      >();
      expectTypeOf(typedRoute.asLlmTool("by_id", { description: "d" })).toEqualTypeOf<
        RouteDsl<{ id: number }>
      >();
      expectTypeOf(route.asLlmTool("any", { description: "d" })).toEqualTypeOf<
        RouteDsl<Record<string, unknown>>
      >();
      route
        .asLlmTool("order", { description: "d", input: orderInput, validate: "model-only" })
        .process((exchange) => {
          expectTypeOf(exchange.body.quantity).toEqualTypeOf<number>();
          // @ts-expect-error: no such argument
          exchange.body.qty;
        });
      // @ts-expect-error: validate is "always" or "model-only"
      route.asLlmTool("x", { description: "d", validate: "sometimes" });
      // @ts-expect-error: a description is required
      route.asLlmTool("x", {});
    };
    expectTypeOf(typed).toBeFunction();
  });
});

describe("toTool, createTool and context.tools infer execute's arguments and result", () => {
  it("types execute from inputSchema, parameters, params and a zod schema, and the Tool from them", () => {
    const weather = toTool({
      name: "get_weather",
      description: "The weather in a city.",
      inputSchema: weatherInput,
      execute: async ({ city, unit }) => {
        expectTypeOf(city).toEqualTypeOf<string>();
        expectTypeOf(unit).toEqualTypeOf<"celsius" | "fahrenheit">();
        return { temperature: 21, unit };
      },
    });
    expectTypeOf(weather).toEqualTypeOf<
      Tool<
        { city: string; unit?: "celsius" | "fahrenheit" },
        { temperature: number; unit: "celsius" | "fahrenheit" }
      >
    >();
    expectTypeOf(weather.execute)
      .parameter(0)
      .toEqualTypeOf<{ city: string; unit?: "celsius" | "fahrenheit" }>();
    expectTypeOf(weather.execute).returns.resolves.toEqualTypeOf<
      ToolResult<{ temperature: number; unit: "celsius" | "fahrenheit" }>
    >();

    const search = toTool({
      name: "search",
      params: { query: { required: true }, max_results: { type: "integer" } },
      call: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ query: string; max_results?: number }>();
        return ["a"];
      },
    });
    expectTypeOf(search).toEqualTypeOf<Tool<{ query: string; max_results?: number }, string[]>>();

    const order = createTool({
      name: "order",
      inputSchema: orderInput,
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ sku: string; quantity: number }>();
        return `${args.quantity} x ${args.sku}`;
      },
    });
    expectTypeOf(order).toEqualTypeOf<Tool<{ sku: string; quantity?: number | undefined }, string>>();

    const untyped = toTool({ name: "ping", execute: (args) => Object.keys(args).length });
    expectTypeOf(untyped).toEqualTypeOf<Tool<Record<string, unknown>, number>>();
    // A returned ToolResult gives its value type.
    const raw = toTool({
      name: "raw",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      execute: (): ToolResult<number> => ({ output: "1", isError: false, value: 1 }),
    });
    expectTypeOf(raw).toEqualTypeOf<Tool<Record<string, never>, number>>();

    // @ts-expect-error: the handler's declared arguments do not match the schema (city is a string)
    toTool({
      name: "bad",
      inputSchema: weatherInput,
      execute: ({ city }: { city: number }) => city,
    });
    // @ts-expect-error: the arguments do not match the schema
    void weather.execute({ city: 42 });
  });

  it("types context.tools.register and call by handle and by a name in LlmToolTypes", () => {
    const typed = async (context: RouteContext) => {
      const handle = context.tools.register({
        name: "order",
        inputSchema: orderInput,
        execute: ({ sku, quantity }) => ({ sku, quantity, total: quantity * 2 }),
      });
      expectTypeOf(await context.tools.call(handle, { sku: "a-1" })).toEqualTypeOf<{
        sku: string;
        quantity: number;
        total: number;
      }>();
      expectTypeOf(await context.tools.call("get_weather", { city: "Oslo" })).toEqualTypeOf<string>();
      expectTypeOf(await context.tools.call("not_declared", { anything: 1 })).toEqualTypeOf<unknown>();
      // @ts-expect-error: quantity is a number
      await context.tools.call(handle, { sku: "a-1", quantity: "2" });
      // @ts-expect-error: city is required
      await context.tools.call("get_weather", { unit: "celsius" });
      // @ts-expect-error: unit is one of the enum's values
      await context.tools.call("get_weather", { city: "Oslo", unit: "kelvin" });
    };
    expectTypeOf(typed).toBeFunction();
  });
});
