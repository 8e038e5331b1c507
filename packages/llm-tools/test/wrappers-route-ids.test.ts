import { createContext, type RouteContext, RoutekitError } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  HttpFetchTool,
  JsonPathTool,
  LlmToolsError,
  MathEvalTool,
  RegexExtractTool,
  TavilyWebSearchTool,
  XPathTool,
} from "../src/index.js";
import { startToolContext } from "./support/tool-context.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

/** The six wrappers, each made with the wrapper options given. */
function allWrappers(options: (toolName: string) => { routeId?: string } = () => ({})) {
  return [
    new HttpFetchTool(options("http_fetch")),
    new JsonPathTool(options("json_path")),
    new MathEvalTool(options("math_eval")),
    new RegexExtractTool(options("regex_extract")),
    new XPathTool(options("xpath")),
    new TavilyWebSearchTool({ apiKey: "test-key", ...options("web_search") }),
  ];
}

describe("tool wrapper route ids", () => {
  it("name each tool route tool.<tool name> in describe() and the route list", async () => {
    context = await startToolContext(...allWrappers());
    const ids = [
      "tool.http_fetch",
      "tool.json_path",
      "tool.math_eval",
      "tool.regex_extract",
      "tool.xpath",
      "tool.web_search",
    ];
    expect(context.describe().routes.map((route) => route.id)).toEqual(ids);
    expect(context.routes().map((route) => route.id)).toEqual(ids);
    // The id names the route the tool runs in.
    expect(context.tools.get("math_eval")?.original).toMatchObject({ routeId: "tool.math_eval" });
    expect(await context.request("direct:llm.math_eval", { expression: "1 + 2" })).toBe("3");
  });

  it("take the routeId option instead, which stops and starts the route by that name", async () => {
    context = await startToolContext(...allWrappers((name) => ({ routeId: `agent-${name}` })));
    expect(context.describe().routes.map((route) => route.id)).toEqual([
      "agent-http_fetch",
      "agent-json_path",
      "agent-math_eval",
      "agent-regex_extract",
      "agent-xpath",
      "agent-web_search",
    ]);
    await context.stopRoute("agent-math_eval");
    expect(context.routes().find((route) => route.id === "agent-math_eval")?.state).toBe("stopped");
  });

  it("refuse a second route with the same id, naming the id, and add none of the batch", async () => {
    context = createContext();
    await context.addRoutes(new JsonPathTool({ routeId: "lookup" }));
    const failure = await context.addRoutes(new MathEvalTool({ routeId: "lookup" })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RoutekitError);
    expect((failure as Error).message).toBe(
      "Route id 'lookup' is already used in this context: route ids must be unique",
    );
    expect(context.routes().map((route) => route.id)).toEqual(["lookup"]);
    expect(context.tools.get("math_eval")).toBeUndefined();
    // A user route that already has a tool route's default id is refused the same way.
    await context.addRoutes((r) => {
      r.from("direct:other").routeId("tool.xpath").to("mock:out");
    });
    await expect(context.addRoutes(new XPathTool())).rejects.toThrow(
      "Route id 'tool.xpath' is already used in this context: route ids must be unique",
    );
    expect(context.tools.get("xpath")).toBeUndefined();
  });

  it("refuse a routeId that is not a non-empty text when the wrapper is made", () => {
    for (const bad of ["", "  ", 12, null]) {
      const make = () => new RegexExtractTool({ routeId: bad as string });
      expect(make).toThrow(LlmToolsError);
      expect(make).toThrow(
        `regex_extract wrapper: option 'routeId' expects a non-empty text, found ${JSON.stringify(bad)}`,
      );
    }
  });
});
