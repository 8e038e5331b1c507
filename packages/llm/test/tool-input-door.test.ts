import { createContext, type RouteContext, RouteStepError } from "@routekit/core";
import { llm, llmPlugin, ToolExecutionError } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

const orderInput = {
  type: "object",
  properties: {
    sku: { type: "string", minLength: 1 },
    quantity: { type: "integer", minimum: 1, default: 1 },
  },
  required: ["sku"],
  additionalProperties: false,
} as const;

/** The door's error behind a failed request (the engine wraps it in a RouteStepError naming the step). */
async function failureOf(promise: Promise<unknown>, routeId = "order-tool"): Promise<ToolExecutionError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RouteStepError);
    expect((error as Error).message).toMatch(
      new RegExp(`^Route '${routeId}' failed at step #1 process\\(asLlmTool\\(`),
    );
    const cause = (error as Error).cause;
    if (cause instanceof ToolExecutionError) return cause;
    throw error;
  }
  throw new Error("expected the request to fail with a ToolExecutionError");
}

/** A context with an `order` tool route that echoes the body it sees, and a route calling it with `to`. */
async function orderContext(validate?: "always" | "model-only") {
  const seen: unknown[] = [];
  const model = scriptedModel([
    { toolCalls: [{ name: "order", arguments: { quantity: "two" } }] },
    { toolCalls: [{ name: "order", arguments: { sku: "a-1" } }] },
    { text: "ordered" },
  ]);
  context = createContext();
  context.use(llmPlugin({ models: { scripted: model } }));
  await context.addRoutes((r) => {
    r.from("direct:order")
      .routeId("order-tool")
      .asLlmTool("order", {
        description: "Places an order.",
        input: orderInput,
        ...(validate && { validate }),
      })
      .transform((exchange) => {
        seen.push(exchange.body);
        return `${exchange.body.quantity} x ${exchange.body.sku}`;
      });
    r.from("direct:forward").routeId("forwarder").to("direct:order");
    r.from("direct:ask").to(llm("scripted").tools("order").uri());
  });
  await context.start();
  return { seen, model };
}

describe("the schema at a tool route's door", () => {
  it("refuses a direct call with bad input, naming the route and every failing path", async () => {
    const { seen } = await orderContext();
    const error = await failureOf(context.request("direct:order", { wrong: true, quantity: 0 }));
    expect(error.code).toBe("TOOL_ARGUMENTS_INVALID");
    expect(error.toolName).toBe("order");
    expect(error.message).toBe(
      "invalid arguments for tool 'order': must have required property 'sku'; /quantity must be >= 1",
    );
    expect(error.issues).toEqual([
      { path: "", message: "must have required property 'sku'" },
      { path: "/quantity", message: "must be >= 1" },
    ]);
    expect(seen).toEqual([]);
  });

  it("gives the same error to another route's to(), and the route sees the defaulted value", async () => {
    const { seen } = await orderContext();
    const error = await failureOf(context.request("direct:forward", { sku: "" }));
    expect(error.message).toContain(
      "invalid arguments for tool 'order': /sku must NOT have fewer than 1 characters",
    );
    expect(await context.request("direct:forward", { sku: "b-2", extra: "dropped" })).toBe("1 x b-2");
    expect(seen).toEqual([{ sku: "b-2", quantity: 1 }]);
  });

  it("parses JSON text of an object before validating it", async () => {
    const { seen } = await orderContext();
    expect(await context.request("direct:order", '{"sku":"c-3","quantity":2}')).toBe("2 x c-3");
    const error = await failureOf(context.request("direct:order", '{"quantity":2}'));
    expect(error.issues).toEqual([{ path: "", message: "must have required property 'sku'" }]);
    expect(seen).toEqual([{ sku: "c-3", quantity: 2 }]);
  });

  it("refuses a body that is not an object: a number, JSON text of a list, plain text, malformed JSON", async () => {
    const { seen } = await orderContext();
    expect((await failureOf(context.request("direct:order", 42))).message).toBe(
      "invalid arguments for tool 'order': expected a JSON object of arguments, got a number",
    );
    expect((await failureOf(context.request("direct:order", "[1, 2]"))).message).toBe(
      "invalid arguments for tool 'order': expected a JSON object of arguments, got an array",
    );
    const text = await failureOf(context.request("direct:order", "two of a-1"));
    expect(text.message).toMatch(
      /^invalid arguments for tool 'order': expected a JSON object of arguments, got text that is not JSON \(.+\): "two of a-1"$/,
    );
    expect(text.issues).toHaveLength(1);
    const bytes = await failureOf(
      context.request("direct:order", new TextEncoder().encode('{"sku": "a-1",}')),
    );
    expect(bytes.message).toContain("got text that is not JSON");
    expect(await context.request("direct:order", new TextEncoder().encode('{"sku":"d-4"}'))).toBe("1 x d-4");
    expect(seen).toEqual([{ sku: "d-4", quantity: 1 }]);
  });

  it("gives the model the same message and runs the route once per valid call", async () => {
    const { seen, model } = await orderContext();
    expect(await context.request("direct:ask", "order one a-1")).toBe("ordered");
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: "tool",
      results: [
        expect.objectContaining({
          isError: true,
          output:
            "invalid arguments for tool 'order': must have required property 'sku'; /quantity must be integer",
        }),
      ],
    });
    expect(seen).toEqual([{ sku: "a-1", quantity: 1 }]);
  });

  it('with validate: "model-only", checks calls from the model only', async () => {
    const { seen } = await orderContext("model-only");
    expect(await context.request("direct:order", { sku: 7 })).toBe("undefined x 7");
    expect(await context.request("direct:ask", "order one a-1")).toBe("ordered");
    expect(seen).toEqual([{ sku: 7 }, { sku: "a-1", quantity: 1 }]);
  });

  it("refuses an unknown validate option when the route is added", async () => {
    context = createContext();
    await expect(
      context.addRoutes((r) =>
        r
          .from("direct:x")
          .asLlmTool("x", { description: "x", validate: "never" as "always" })
          .setBody("x"),
      ),
    ).rejects.toThrow(`option 'validate' must be "always" or "model-only" (found "never")`);
  });
});

describe("a Standard Schema at the door", () => {
  it("runs the schema's own validation once per call, and the route sees its output", async () => {
    let validations = 0;
    const input = z
      .object({ city: z.string().min(1), days: z.coerce.number().int().max(7).default(1) })
      .refine(() => {
        validations += 1;
        return true;
      });
    const seen: unknown[] = [];
    const model = scriptedModel([
      { toolCalls: [{ name: "forecast", arguments: { city: "Oslo", days: 3 } }] },
      { text: "sunny" },
    ]);
    context = createContext();
    context.use(llmPlugin({ models: { scripted: model } }));
    await context.addRoutes((r) => {
      r.from("direct:forecast")
        .routeId("forecast")
        .asLlmTool("forecast", { description: "A forecast.", input })
        .transform((exchange) => {
          seen.push(exchange.body);
          return `${exchange.body.city}: ${exchange.body.days} days`;
        });
      r.from("direct:ask").to(llm("scripted").tools("forecast").uri());
    });
    await context.start();

    expect(await context.request("direct:ask", "weather?")).toBe("sunny");
    expect(validations).toBe(1);
    expect(await context.request("direct:forecast", { city: "Lima" })).toBe("Lima: 1 days");
    expect(validations).toBe(2);
    expect(seen).toEqual([
      { city: "Oslo", days: 3 },
      { city: "Lima", days: 1 },
    ]);
    const error = await failureOf(context.request("direct:forecast", { city: "", days: 9 }), "forecast");
    expect(error.issues.map((issue) => issue.path)).toEqual(["/city", "/days"]);
  });
});
