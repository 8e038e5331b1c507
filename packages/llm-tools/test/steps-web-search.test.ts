import { createContext, type RouteContext } from "@routekit/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

const KEY = "tvly-step-test-key";
let tavily: LoopbackServer;
let context: RouteContext | undefined;

/** A loopback server speaking Tavily's search API. */
beforeAll(async () => {
  tavily = await startLoopbackServer((request, response) => {
    const { query, max_results: maxResults } = JSON.parse(request.body) as {
      query: string;
      max_results: number;
    };
    response.setHeader("content-type", "application/json");
    response.end(
      JSON.stringify({
        query,
        results: Array.from({ length: maxResults }, (_, index) => ({
          title: `${query} ${index}`,
          url: `https://example.org/${index}`,
          content: "...",
          score: 0.3,
        })),
      }),
    );
  });
});
afterAll(() => tavily.close());
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

describe(".tavilyWebSearch() step", () => {
  it("takes a plain-text query as the body, sets the result count header, and feeds jsonPath", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:search")
        .tavilyWebSearch({ apiKey: KEY, baseUrl: tavily.origin, includeAnswer: false })
        .setHeader("hits", "${header.llm.web_search.results}")
        .jsonPath({ path: "$.results[*].url" }),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:search", { body: "routekit" });
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toBe(
      '["https://example.org/0","https://example.org/1","https://example.org/2","https://example.org/3","https://example.org/4"]',
    );
    expect(exchange.headers["llm.web_search.results"]).toBe(5);
    expect(JSON.parse(tavily.requests[0]?.body ?? "{}")).toMatchObject({
      query: "routekit",
      include_answer: false,
    });
  });

  it("takes {query, max_results} as an object; the output has no answer when Tavily gave none", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r.from("direct:search").tavilyWebSearch({ apiKey: KEY, baseUrl: tavily.origin }),
    );
    await context.start();
    const reply = JSON.parse(String(await context.request("direct:search", { query: "q", max_results: 1 })));
    expect(reply).toEqual({ results: [{ title: "q 0", url: "https://example.org/0", content: "..." }] });
  });
});
