import { createContext, type RouteContext } from "@routekit/core";
import { llm, llmPlugin } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  HttpFetchTool,
  JsonPathTool,
  MathEvalTool,
  RegexExtractTool,
  shutdownRegexWorkers,
  TavilyWebSearchTool,
  XPathTool,
} from "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

const KEY = "tvly-llm-step-key";
let server: LoopbackServer;
let context: RouteContext | undefined;

/** Serves a page at /page and answers Tavily's POST /search. */
beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    if (request.url === "/search") {
      const { query } = JSON.parse(request.body) as { query: string };
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          query,
          answer: "Yes.",
          results: [{ title: "T", url: "https://x.org/", content: "C", score: 1 }],
        }),
      );
      return;
    }
    response.end("page body");
  });
});
afterAll(async () => {
  await server.close();
  await shutdownRegexWorkers();
});
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

async function startWithTools(model: ReturnType<typeof scriptedModel>): Promise<RouteContext> {
  const started = createContext();
  started.use(llmPlugin({ models: { scripted: model } }));
  await started.addRoutes(new HttpFetchTool({ allowPrivateNetwork: true }));
  await started.addRoutes(new JsonPathTool());
  await started.addRoutes(new XPathTool());
  await started.addRoutes(new RegexExtractTool());
  await started.addRoutes(new MathEvalTool());
  await started.addRoutes(new TavilyWebSearchTool({ apiKey: KEY, baseUrl: server.origin }));
  await started.addRoutes((r) =>
    r
      .from("direct:ask")
      .to(
        llm("scripted")
          .tools("http_fetch", "json_path", "xpath", "regex_extract", "math_eval", "web_search")
          .uri(),
      ),
  );
  await started.start();
  return started;
}

describe("the tools called by name from an LLM step", () => {
  it("answers every call with the tool's output, in call order", async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "http_fetch", arguments: { url: `${server.origin}/page` } },
          { name: "json_path", arguments: { json: '{"a":{"b":[1,2,3]}}', path: "$.a.b[-1:]" } },
          { name: "json_path", arguments: { json: { a: 1 }, path: "$.a" } },
          { name: "xpath", arguments: { xml: "<r><v>1</v><v>2</v></r>", xpath: "string(//v)" } },
          { name: "xpath", arguments: { xml: "<r/>", xpath: "//v" } },
          {
            name: "regex_extract",
            arguments: { text: "x=1, y=22", pattern: "(?<key>\\w)=(\\d+)", group: 2, all: true },
          },
          { name: "math_eval", arguments: { expression: "2 * (3 + 4)" } },
          { name: "math_eval", arguments: { expression: "log(0)" } },
          { name: "web_search", arguments: { query: "is it?", max_results: 1 } },
        ],
      },
      { text: "done" },
    ]);
    context = await startWithTools(model);
    expect(await context.request("direct:ask", "use the tools")).toBe("done");
    const toolMessage = model.requests[1]?.messages.at(-1);
    expect(toolMessage).toMatchObject({
      role: "tool",
      results: [
        { name: "http_fetch", output: "page body", isError: false },
        { name: "json_path", output: "[3]", isError: false },
        { name: "json_path", output: "1", isError: false },
        { name: "xpath", output: "1", isError: false },
        { name: "xpath", output: "null", isError: false },
        { name: "regex_extract", output: '["1","22"]', isError: false },
        { name: "math_eval", output: "14", isError: false },
        { name: "math_eval", output: "null", isError: false },
        {
          name: "web_search",
          output: '{"answer":"Yes.","results":[{"title":"T","url":"https://x.org/","content":"C"}]}',
          isError: false,
        },
      ],
    });
    const offered = model.requests[0]?.tools.map((tool) => tool.name).sort();
    expect(offered).toEqual(["http_fetch", "json_path", "math_eval", "regex_extract", "web_search", "xpath"]);
  });

  it("turns a tool failure into an error result naming the tool and the key", async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "json_path", arguments: { json: "{not json", path: "$" } },
          { name: "xpath", arguments: { xml: "<!DOCTYPE r><r/>", xpath: "/r" } },
          { name: "regex_extract", arguments: { text: "abc", pattern: "(" } },
          { name: "math_eval", arguments: { expression: "import({}, {})" } },
        ],
      },
      { text: "sorry" },
    ]);
    context = await startWithTools(model);
    expect(await context.request("direct:ask", "break things")).toBe("sorry");
    const toolMessage = model.requests[1]?.messages.at(-1);
    if (toolMessage?.role !== "tool") throw new Error("expected the tool results as the last message");
    const results = toolMessage.results;
    expect(results.map((result) => result.isError)).toEqual([true, true, true, true]);
    expect(results[0]?.output).toContain("json_path: key 'json' is not valid JSON");
    expect(results[1]?.output).toContain("xpath: key 'xml': XML document refused");
    expect(results[2]?.output).toContain("regex_extract");
    expect(results[3]?.output).toContain("math_eval");
  });
});
