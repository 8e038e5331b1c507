import { createContext, RoutekitError } from "@routekit/core";
import { describe, expect, it } from "vitest";

// This file imports only @routekit/core: every first-party scheme and step below is missing.
describe("using a first-party scheme or step without its package", () => {
  it.each([
    ["llm:openai?tools=math_eval", "@routekit/llm", "llmPlugin"],
    ["amqp:queue:orders", "@routekit/amqp", "amqpPlugin"],
    ["http://127.0.0.1:9/items", "@routekit/http", "httpPlugin"],
    ["https://127.0.0.1:9/items", "@routekit/http", "httpPlugin"],
  ])("%s names %s and how to add it", async (uri, packageName, plugin) => {
    const context = createContext({ logLevel: "off" });
    const adding = context.addRoutes((r) => {
      r.from("direct:in").routeId("caller").to(uri);
    });
    await expect(adding).rejects.toThrow(RoutekitError);
    await expect(adding).rejects.toThrow(packageName);
    await expect(adding).rejects.toThrow(plugin);
    await expect(adding).rejects.toThrow(`no component for scheme '${uri.slice(0, uri.indexOf(":"))}'`);
  });

  it("an unknown scheme that no package provides still gets the nearest known one", async () => {
    const context = createContext({ logLevel: "off" });
    const adding = context.addRoutes((r) => {
      r.from("direct:in").to("sedda:work");
    });
    await expect(adding).rejects.toThrow("did you mean seda?");
  });

  it.each([
    ["mathEval", "@routekit/llm-tools"],
    ["jsonPath", "@routekit/llm-tools"],
    ["httpFetch", "@routekit/llm-tools"],
    ["xpath", "@routekit/llm-tools"],
    ["regexExtract", "@routekit/llm-tools"],
    ["tavilyWebSearch", "@routekit/llm-tools"],
    ["asLlmTool", "@routekit/llm"],
  ])("the DSL step %s() names %s and the route", async (step, packageName) => {
    const context = createContext({ logLevel: "off" });
    const adding = context.addRoutes((r) => {
      const route = r.from("direct:in").routeId("enrich") as unknown as Record<string, () => unknown>;
      route[step]?.();
    });
    await expect(adding).rejects.toThrow(
      `Route 'enrich': the DSL step ${step}() comes from ${packageName}; install it and import it once`,
    );
  });
});
