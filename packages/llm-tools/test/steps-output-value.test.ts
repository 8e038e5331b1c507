import { createContext, type RouteContext } from "@routekit/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { JsonPathTool, LlmToolsError, shutdownRegexWorkers } from "../src/index.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});
afterAll(() => shutdownRegexWorkers());

const catalog = {
  items: [
    { sku: "A-1", name: "Anvil", price: 12 },
    { sku: "B-2", name: "Bell", price: 4 },
  ],
};

async function start(configure: Parameters<RouteContext["addRoutes"]>[0]): Promise<RouteContext> {
  context = createContext({ logLevel: "off" });
  await context.addRoutes(configure);
  await context.start();
  return context;
}

describe('output: "value" on the enrichment steps', () => {
  it("jsonPath hands the next step the matched value, with a fixed path or one from the body", async () => {
    const running = await start((r) => {
      r.from("direct:first")
        .jsonPath<{ sku: string; price: number }>({ path: "$.items[0]", output: "value" })
        .setBody((exchange) => `${exchange.body.sku} costs ${exchange.body.price}`);
      r.from("direct:prices").jsonPath({ path: "$.items[*].price", output: "value" });
      r.from("direct:query").jsonPath({ output: "value" });
      r.from("direct:text").jsonPath({ path: "$.items[0].sku" });
    });
    expect(await running.request("direct:first", catalog)).toBe("A-1 costs 12");
    expect(await running.request("direct:first", JSON.stringify(catalog))).toBe("A-1 costs 12");
    expect(await running.request("direct:prices", catalog)).toEqual([12, 4]);
    expect(await running.request("direct:query", { json: catalog, path: "$.items[1].name" })).toBe("Bell");
    expect(await running.request("direct:query", { json: catalog, path: "$.missing" })).toBeNull();
    // the default stays the tool's JSON text
    expect(await running.request("direct:text", catalog)).toBe('"A-1"');
  });

  it("mathEval hands on the result itself", async () => {
    const running = await start((r) => {
      r.from("direct:total")
        .setBody("${body.quantity} * ${body.unitPrice}")
        .mathEval<number>({ output: "value" })
        .setBody((exchange) => exchange.body + 1);
      r.from("direct:any").mathEval({ output: "value" });
      r.from("direct:text").mathEval({ output: "json" });
    });
    expect(await running.request("direct:total", { quantity: 3, unitPrice: 12.5 })).toBe(38.5);
    expect(await running.request("direct:any", "2 > 1")).toBe(true);
    expect(await running.request("direct:any", '"ab"')).toBe("ab");
    expect(await running.request("direct:any", "[1, 2] * 2")).toEqual([2, 4]);
    expect(await running.request("direct:any", "1 / 0")).toBeNull();
    expect(await running.request("direct:text", "1 + 1")).toBe("2");
  });

  it("regexExtract hands on the match, every match, or null", async () => {
    const text = "order A-17 shipped, order B-4 pending";
    const running = await start((r) => {
      r.from("direct:all").regexExtract({ pattern: "[A-Z]-(\\d+)", group: 1, all: true, output: "value" });
      r.from("direct:first").regexExtract({ pattern: "[A-Z]-\\d+", all: false, output: "value" });
      r.from("direct:input").regexExtract({ output: "value" });
    });
    expect(await running.request("direct:all", text)).toEqual(["17", "4"]);
    expect(await running.request("direct:all", "nothing here")).toBeNull();
    expect(await running.request("direct:first", text)).toBe("A-17");
    expect(await running.request("direct:input", { text, pattern: "B-\\d+" })).toBe("B-4");
    expect(await running.request("direct:input", { text, pattern: "\\d+", all: true })).toEqual(["17", "4"]);
  });

  it('refuses an output other than "json" or "value" when the route is added', async () => {
    context = createContext({ logLevel: "off" });
    for (const [step, tool] of [
      ["jsonPath", "json_path"],
      ["mathEval", "math_eval"],
      ["regexExtract", "regex_extract"],
    ] as const) {
      const failure = await context
        .addRoutes((r) => {
          (r.from(`direct:${step}`) as unknown as Record<string, (options: object) => unknown>)[step]?.({
            output: "text",
          });
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(Error);
      const cause = (failure as Error).cause ?? failure;
      expect(cause).toBeInstanceOf(LlmToolsError);
      expect((cause as LlmToolsError).message).toBe(
        `${tool}: option 'output' must be "json" or "value" (found the string "text")`,
      );
    }
  });

  it("the wrappers keep the tool contract: JSON text for the model", () => {
    expect(() => new JsonPathTool({ output: "value" } as never)).toThrow(
      "json_path: unknown option 'output'",
    );
  });
});
