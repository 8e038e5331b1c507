import { createContext, type RouteContext } from "@routekit/core";
import "@routekit/llm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

describe("context.describe() of tool routes", () => {
  it("shows which routes are tools, with their name, description and input schema", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:llm.add")
        .routeId("add-tool")
        .asLlmTool("add", {
          description: "Adds two numbers.",
          input: {
            type: "object",
            properties: { a: { type: "number" }, b: { type: "number" } },
            required: ["a", "b"],
          } as const,
        })
        .setBody((exchange) => exchange.body.a + exchange.body.b);
      r.from("direct:llm.greet")
        .routeId("greet-tool")
        .asLlmTool("greet", {
          description: "Greets someone.",
          input: z.object({ name: z.string() }),
          validate: "model-only",
        })
        .setBody((exchange) => `hello ${exchange.body.name}`);
      r.from("direct:plain").routeId("plain").to("direct:llm.add");
    });
    await context.start();
    expect(await context.request("direct:plain", { a: 2, b: 3 })).toBe(5);

    const description = JSON.parse(JSON.stringify(context.describe())) as ReturnType<
      RouteContext["describe"]
    >;
    const byId = new Map(description.routes.map((route) => [route.id, route]));
    expect(byId.get("add-tool")?.aspects).toEqual({
      llmTool: {
        name: "add",
        description: "Adds two numbers.",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
        validate: "always",
      },
    });
    // The schema guard is the tool route's first step.
    expect(byId.get("add-tool")?.steps[0]).toMatchObject({
      type: "process",
      label: "#1 process(asLlmTool(add))",
    });
    const greet = byId.get("greet-tool")?.aspects.llmTool as Record<string, unknown>;
    expect(greet).toMatchObject({ name: "greet", description: "Greets someone.", validate: "model-only" });
    expect(greet.inputSchema).toMatchObject({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    });
    expect(byId.get("plain")?.aspects).toEqual({});
    expect(byId.get("add-tool")?.counters).toEqual({ inflight: 0, completed: 1, failed: 0 });
    expect(description.edges).toEqual([
      { from: "plain", to: "add-tool", uri: "direct:llm.add", step: "#1 to(direct:llm.add)" },
    ]);
  });
});
