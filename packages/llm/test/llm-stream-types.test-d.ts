import type { RouteDsl } from "@routekit/core";
import type { LlmStream, LlmStreamPart, TokenUsage } from "@routekit/llm";
import { llm } from "@routekit/llm";
import type { LlmStepUri } from "@routekit/llm/internal";
import { describe, expectTypeOf, it } from "vitest";

// Type-level only: checked by the compiler, never run.

describe("a streaming llm step's types", () => {
  it("makes the body an LlmStream whose parts are a union discriminated on type", () => {
    expectTypeOf(llm("openai").stream().uri()).toEqualTypeOf<LlmStepUri<LlmStream>>();
    const check = (route: RouteDsl<string>) => {
      const next = route.to(llm("openai").stream().uri());
      expectTypeOf(next).toEqualTypeOf<RouteDsl<LlmStream>>();
    };
    void check;
    const read = (part: LlmStreamPart) => {
      if (part.type === "text-delta") expectTypeOf(part.text).toEqualTypeOf<string>();
      if (part.type === "finish") expectTypeOf(part.usage).toEqualTypeOf<TokenUsage>();
      if (part.type === "tool-result") expectTypeOf(part.isError).toEqualTypeOf<boolean>();
    };
    void read;
    expectTypeOf<LlmStream>().toMatchTypeOf<AsyncIterable<LlmStreamPart>>();
    expectTypeOf<LlmStream["textStream"]>().toEqualTypeOf<AsyncIterable<string>>();
  });
});
