import { createContext, type RouteContext } from "@routekit/core";
import { LlmError, llmPlugin, ToolExecutionError } from "@routekit/llm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to reject");
}

describe("context.tools.call", () => {
  it("validates, runs and resolves with the value of a registered tool, by handle and by name", async () => {
    context = createContext();
    const order = context.tools.register({
      name: "order",
      description: "Prices an order.",
      inputSchema: z.object({ sku: z.string(), quantity: z.number().int().default(1) }),
      execute: ({ sku, quantity }) => ({ sku, quantity, total: quantity * 2.5 }),
    });
    expect(await context.tools.call(order, { sku: "a-1", quantity: 2 })).toEqual({
      sku: "a-1",
      quantity: 2,
      total: 5,
    });
    expect(await context.tools.call("order", { sku: "b-2" })).toEqual({
      sku: "b-2",
      quantity: 1,
      total: 2.5,
    });

    const invalid = await rejectionOf(context.tools.call("order", { quantity: 1.5 }));
    expect(invalid).toBeInstanceOf(ToolExecutionError);
    expect((invalid as ToolExecutionError).code).toBe("TOOL_ARGUMENTS_INVALID");
    expect((invalid as ToolExecutionError).issues.map((issue) => issue.path)).toEqual(["", "/quantity"]);

    const unknown = await rejectionOf(context.tools.call("ordr", {}));
    expect(unknown).toBeInstanceOf(LlmError);
    expect(unknown.message).toBe("unknown tool 'ordr' (did you mean 'order'?); known tools: order");
  });

  it("resolves with a tool route's reply body and rejects with the route's error", async () => {
    context = createContext();
    context.use(llmPlugin({ models: {} }));
    await context.addRoutes((r) => {
      r.from("direct:total")
        .asLlmTool("total", {
          description: "Totals prices.",
          input: {
            type: "object",
            properties: { prices: { type: "array", items: { type: "number" } } },
            required: ["prices"],
          },
        })
        .transform((exchange) => ({ total: exchange.body.prices.reduce((sum, price) => sum + price, 0) }));
      r.from("direct:broken")
        .asLlmTool("broken", { description: "Fails." })
        .process(() => {
          throw new RangeError("out of stock");
        });
    });
    await context.start();
    expect(await context.tools.call("total", { prices: [1, 2.5] })).toEqual({ total: 3.5 });
    const failed = await rejectionOf(context.tools.call("broken", {}));
    expect(failed.message).toContain("out of stock");
  });
});
