import type { RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { MATH_EVAL_INPUT_SCHEMA, MathEvalTool, ToolInputError } from "../src/index.js";
import { requestFailure, startToolContext } from "./support/tool-context.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

describe("MathEvalTool", () => {
  it("mounts math_eval on direct:llm.math_eval and answers objects and JSON text", async () => {
    context = await startToolContext(new MathEvalTool());
    const uri = "direct:llm.math_eval";
    expect(await context.request(uri, { expression: "2 * (3 + 4)" })).toBe("14");
    expect(await context.request(uri, JSON.stringify({ expression: "3 > 2" }))).toBe("true");
    expect(context.tools.get("math_eval")?.inputSchema).toEqual(MATH_EVAL_INPUT_SCHEMA);
  });

  it("gives null for NaN and infinities", async () => {
    context = await startToolContext(new MathEvalTool({ endpointUri: "direct:calc" }));
    expect(await context.request("direct:calc", { expression: "1 / 0" })).toBe("null");
    expect(await context.request("direct:calc", { expression: "-1 / 0" })).toBe("null");
    expect(await context.request("direct:calc", { expression: "0 / 0" })).toBe("null");
  });

  it("names the tool and the key for bad input", async () => {
    context = await startToolContext(new MathEvalTool());
    const missing = await requestFailure(context, "direct:llm.math_eval", { expr: "1" });
    expect(missing).toBeInstanceOf(ToolInputError);
    expect(missing.message).toContain("math_eval");
    expect(missing.message).toContain("'expression'");
  });

  it("refuses bad options at construction", () => {
    expect(() => new MathEvalTool({ maxExpressionChars: 0 })).toThrow(
      "math_eval: option 'maxExpressionChars'",
    );
  });
});
