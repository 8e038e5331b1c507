import { type RouteBuilder, type RouteContext, RouteBuilder as Routes } from "@routekit/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  HttpFetchTool,
  JsonPathTool,
  MathEvalTool,
  RegexExtractTool,
  shutdownRegexWorkers,
  TavilyWebSearchTool,
  ToolInputError,
  XPathTool,
} from "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";
import { requestFailure, startToolContext } from "./support/tool-context.js";

// Input that starts as a JSON object (`{` after whitespace) and does not parse is reported as
// invalid JSON naming the tool, by every tool, in every form that also takes plain text.

let server: LoopbackServer;
let context: RouteContext | undefined;

beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => {
  await server.close();
  await shutdownRegexWorkers();
});
afterEach(async () => {
  await context?.stop();
  context = undefined;
  server.requests.length = 0;
});

const malformed = [
  ["an object with a trailing comma", '{"expression": "2+2",}'],
  ["an unquoted key", "{not json"],
  ["leading whitespace", ' \n\t{"url": "http://127.0.0.1/"'],
  ["bytes", new TextEncoder().encode("{not json")],
] as const;

/** Each tool as its wrapper mounts it: the endpoint and the builder. */
function toolRoutes(): [string, string, () => RouteBuilder][] {
  return [
    ["http_fetch", "direct:llm.http_fetch", () => new HttpFetchTool({ allowPrivateNetwork: true })],
    ["json_path", "direct:llm.json_path", () => new JsonPathTool()],
    ["xpath", "direct:llm.xpath", () => new XPathTool()],
    ["regex_extract", "direct:llm.regex_extract", () => new RegexExtractTool()],
    ["math_eval", "direct:llm.math_eval", () => new MathEvalTool()],
    [
      "web_search",
      "direct:llm.web_search",
      () => new TavilyWebSearchTool({ apiKey: "tvly-malformed-input-test", baseUrl: server.origin }),
    ],
  ];
}

/** Checks that the failure is the invalid-JSON input error of `toolName`, blaming no key. */
function expectInvalidJson(error: Error, toolName: string): void {
  expect(error).toBeInstanceOf(ToolInputError);
  expect((error as ToolInputError).code).toBe("TOOL_INPUT_INVALID");
  expect((error as ToolInputError).toolName).toBe(toolName);
  expect((error as ToolInputError).key).toBeUndefined();
  expect(error.message).toMatch(
    new RegExp(`^${toolName}: input is not valid JSON \\(.+\\); expected a JSON object$`),
  );
  expect(error.message).not.toContain("key '");
}

describe.each(toolRoutes())("%s", (toolName, uri, build) => {
  it.each(malformed)("reports %s as invalid JSON naming the tool", async (_, body) => {
    context = await startToolContext(build());
    expectInvalidJson(await requestFailure(context, uri, body), toolName);
    expect(server.requests).toEqual([]);
  });
});

describe("tools that also take plain text", () => {
  it("math_eval never evaluates a malformed object as an expression", async () => {
    context = await startToolContext(new MathEvalTool());
    const error = await requestFailure(context, "direct:llm.math_eval", '{"expression": "2+2",}');
    expectInvalidJson(error, "math_eval");
    expect(await context.request("direct:llm.math_eval", '{"expression": "2+2"}')).toBe("4");
    expect(await context.request("direct:llm.math_eval", "2 * (3 + 4)")).toBe("14");
  });

  it("the enrichment steps with fixed options report a malformed object the same way", async () => {
    context = await startToolContext(
      new (class extends Routes {
        override configure(): void {
          this.from("direct:math").mathEval();
          this.from("direct:xml").xpath({ xpath: "//title" });
          this.from("direct:fetch").httpFetch({ allowPrivateNetwork: true });
          this.from("direct:search").tavilyWebSearch({ apiKey: "tvly-step-test", baseUrl: server.origin });
        }
      })(),
    );
    const cases = [
      ["direct:math", "math_eval"],
      ["direct:xml", "xpath"],
      ["direct:fetch", "http_fetch"],
      ["direct:search", "web_search"],
    ] as const;
    for (const [endpoint, toolName] of cases) {
      expectInvalidJson(await requestFailure(context, endpoint, "  {not json"), toolName);
    }
    expect(server.requests).toEqual([]);
    // their plain-text forms still work
    expect(await context.request("direct:math", "2 + 2")).toBe("4");
    expect(await context.request("direct:xml", "<a><title>T</title></a>")).toBe("T");
    expect(await context.request("direct:fetch", `${server.origin}/`)).toBe("ok");
  });

  it("regex_extract with a fixed pattern searches a string body as text, even one starting with {", async () => {
    context = await startToolContext(
      new RegexExtractTool({ endpointUri: "direct:ids", pattern: '"id":\\s*(\\d+)', group: 1 }),
    );
    expect(await context.request("direct:ids", '{"id": 42,}')).toBe('"42"');
  });
});
