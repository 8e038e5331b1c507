import type { RouteContext } from "@routekit/core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { TavilyWebSearchTool, ToolInputError, WEB_SEARCH_INPUT_SCHEMA } from "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";
import { requestFailure, startToolContext } from "./support/tool-context.js";

const KEY = "tvly-wrapper-test-key";
let tavily: LoopbackServer;
let context: RouteContext | undefined;

/** A loopback server answering like Tavily's POST /search. */
beforeAll(async () => {
  tavily = await startLoopbackServer((request, response) => {
    response.setHeader("content-type", "application/json");
    if (request.headers.authorization !== `Bearer ${KEY}`) {
      response.statusCode = 401;
      response.end(JSON.stringify({ detail: { error: "Unauthorized" } }));
      return;
    }
    const { query, max_results: maxResults } = JSON.parse(request.body) as {
      query: string;
      max_results: number;
    };
    response.end(
      JSON.stringify({
        query,
        answer: `About ${query}.`,
        results: Array.from({ length: maxResults }, (_, index) => ({
          title: `T${index}`,
          url: `https://example.com/${index}`,
          content: `C${index}`,
          score: 0.5,
        })),
        response_time: 0.1,
      }),
    );
  });
});
afterAll(() => tavily.close());
afterEach(async () => {
  vi.unstubAllEnvs();
  await context?.stop();
  context = undefined;
  tavily.requests.length = 0;
});

describe("TavilyWebSearchTool", () => {
  it("mounts web_search on direct:llm.web_search and answers objects and JSON text", async () => {
    context = await startToolContext(new TavilyWebSearchTool({ apiKey: KEY, baseUrl: tavily.origin }));
    const reply = await context.request("direct:llm.web_search", { query: "routekit", max_results: 2 });
    expect(JSON.parse(String(reply))).toEqual({
      answer: "About routekit.",
      results: [
        { title: "T0", url: "https://example.com/0", content: "C0" },
        { title: "T1", url: "https://example.com/1", content: "C1" },
      ],
    });
    const fromText = await context.request("direct:llm.web_search", JSON.stringify({ query: "q" }));
    expect(JSON.parse(String(fromText)).results).toHaveLength(5);
    expect(JSON.parse(tavily.requests[1]?.body ?? "{}")).toMatchObject({ query: "q", max_results: 5 });
    expect(context.tools.get("web_search")?.inputSchema).toEqual(WEB_SEARCH_INPUT_SCHEMA);
  });

  it("takes the key from TAVILY_API_KEY", async () => {
    vi.stubEnv("TAVILY_API_KEY", KEY);
    context = await startToolContext(
      new TavilyWebSearchTool({ baseUrl: tavily.origin, endpointUri: "direct:search" }),
    );
    expect(
      JSON.parse(String(await context.request("direct:search", { query: "x", max_results: 1 }))).results,
    ).toHaveLength(1);
  });

  it("fails at construction without a key, and never shows a key", () => {
    vi.stubEnv("TAVILY_API_KEY", "");
    expect(() => new TavilyWebSearchTool({ baseUrl: tavily.origin })).toThrow(
      "web_search: no Tavily API key: set option 'apiKey' or the TAVILY_API_KEY environment variable",
    );
    expect(() => new TavilyWebSearchTool({ apiKey: " " })).toThrow(
      "web_search: option 'apiKey' must be a non-empty string",
    );
  });

  it("names the tool and the key for bad input", async () => {
    context = await startToolContext(new TavilyWebSearchTool({ apiKey: KEY, baseUrl: tavily.origin }));
    const error = await requestFailure(context, "direct:llm.web_search", { query: 42 });
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error.message).toBe("web_search: key 'query' must be a string (found number 42)");
    expect(tavily.requests).toEqual([]);
  });
});
