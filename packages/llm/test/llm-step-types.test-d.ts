import type { RouteDsl } from "@routekit/core";
import { defineStructuredOutput, type LlmStepBuilder, llm, type ToolLoopResult } from "@routekit/llm";
import type { LlmStepUri, StructuredOutput } from "@routekit/llm/internal";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";

// Type-level only: the functions below are checked by the compiler, never run.

const order = z.object({ sku: z.string(), quantity: z.number().int() });

describe("the llm step's reply type", () => {
  it("is the answer text, or the output schema's type, through .to(uri)", () => {
    expectTypeOf(llm("openai")).toEqualTypeOf<LlmStepBuilder<string>>();
    expectTypeOf(llm("openai").tools("a").uri()).toEqualTypeOf<LlmStepUri<string>>();
    expectTypeOf(llm("openai").output(order).maxOutputRetries(1).uri()).toEqualTypeOf<
      LlmStepUri<{ sku: string; quantity: number }>
    >();
    expectTypeOf(
      llm("openai")
        .output({
          type: "object",
          properties: { ok: { type: "boolean" } },
          required: ["ok"],
          additionalProperties: false,
        })
        .uri(),
    ).toEqualTypeOf<LlmStepUri<{ ok: boolean }>>();
    expectTypeOf(llm("openai").output<{ id: string }>("order")).toEqualTypeOf<
      LlmStepBuilder<{ id: string }>
    >();
    expectTypeOf(llm("openai").output("order")).toEqualTypeOf<LlmStepBuilder<unknown>>();

    const typed = (route: RouteDsl<string>) => {
      expectTypeOf(route.to(llm("openai").uri())).toEqualTypeOf<RouteDsl<string>>();
      route.to(llm("openai").tools("stock").output(order).uri()).process((exchange) => {
        expectTypeOf(exchange.body).toEqualTypeOf<{ sku: string; quantity: number }>();
        // @ts-expect-error: no such field in the output schema
        exchange.body.total;
      });
      // A plain string URI keeps core's `to` (the reply type is the caller's to give).
      expectTypeOf(route.to("llm:openai?output=order")).toEqualTypeOf<RouteDsl<string>>();
      expectTypeOf(route.to<{ id: string }>("llm:openai?output=order")).toEqualTypeOf<
        RouteDsl<{ id: string }>
      >();
    };
    expectTypeOf(typed).toBeFunction();
  });

  it("types defineStructuredOutput and refuses what is not a schema", () => {
    expectTypeOf(defineStructuredOutput(order)).toEqualTypeOf<
      StructuredOutput<{ sku: string; quantity: number }>
    >();
    expectTypeOf<ToolLoopResult["output"]>().toEqualTypeOf<unknown>();
    const refused = () => {
      // @ts-expect-error: a schema is an object
      llm("openai").output(42);
      // @ts-expect-error: the retries are a number
      llm("openai").maxOutputRetries("2");
    };
    expectTypeOf(refused).toBeFunction();
  });
});
