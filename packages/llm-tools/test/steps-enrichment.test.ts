import { createContext, type MockEndpoint, type RouteContext } from "@routekit/core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { httpFetch, jsonPath, mathEval, regexExtract, shutdownRegexWorkers, xpath } from "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

let server: LoopbackServer;
let context: RouteContext | undefined;

const catalog = {
  items: [
    { sku: "A-1", name: "Anvil", price: 12 },
    { sku: "B-2", name: "Bell", price: 4 },
  ],
};
const atom = "<feed><entry><title>First post</title></entry><entry><title>Second post</title></entry></feed>";

beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    if (request.url === "/catalog.json") {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(catalog));
    } else if (request.url === "/feed.xml") {
      response.setHeader("content-type", "application/xml");
      response.end(atom);
    } else if (request.url === "/stall") {
      // never answers: only the exchange's deadline ends the fetch
    } else {
      response.end("Call 555-0100 or 555-0199 before noon.");
    }
  });
});
afterAll(async () => {
  await server.close();
  await shutdownRegexWorkers();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await context?.stop();
  context = undefined;
  server.requests.length = 0;
});

async function start(define: (context: RouteContext) => Promise<void>): Promise<RouteContext> {
  const started = createContext();
  await define(started);
  await started.start();
  return started;
}

describe("tool steps as enrichment stages (no tool aspect)", () => {
  it("runs the seed's pipeline: httpFetch a URL body, then pre-pull a field with jsonPath", async () => {
    context = await start((c) =>
      c.addRoutes((r) => {
        r.from("direct:in")
          .httpFetch({ allowPrivateNetwork: true })
          .jsonPath({ path: "$.items[0]" })
          .to("mock:out");
      }),
    );
    const exchange = await context.requestExchange("direct:in", { body: `${server.origin}/catalog.json` });
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toBe('{"sku":"A-1","name":"Anvil","price":12}');
    expect(exchange.headers).toMatchObject({
      "llm.http_fetch.status": 200,
      "llm.http_fetch.truncated": false,
    });
    const mock = context.endpoint("mock:out") as MockEndpoint;
    expect(mock.received.map((received) => received.body)).toEqual([
      '{"sku":"A-1","name":"Anvil","price":12}',
    ]);
    expect(server.requests.map((request) => request.url)).toEqual(["/catalog.json"]);
  });

  it("chains httpFetch into xpath and into regexExtract", async () => {
    context = await start((c) =>
      c.addRoutes((r) => {
        r.from("direct:feed")
          .httpFetch({ allowPrivateNetwork: true })
          .xpath({ xpath: "string(//entry/title)" });
        r.from("direct:phones")
          .httpFetch({ allowPrivateNetwork: true })
          .regexExtract({ pattern: "\\d{3}-(?<line>\\d{4})", group: "line", all: true });
      }),
    );
    expect(await context.request("direct:feed", JSON.stringify({ url: `${server.origin}/feed.xml` }))).toBe(
      "First post",
    );
    expect(await context.request("direct:phones", { url: `${server.origin}/page` })).toBe('["0100","0199"]');
  });

  it("reads the full tool input from the body when no option fixes a field", async () => {
    context = await start((c) =>
      c.addRoutes((r) => {
        r.from("direct:json").jsonPath();
        r.from("direct:xml").xpath();
        r.from("direct:regex").regexExtract();
        r.from("direct:math").mathEval();
      }),
    );
    expect(await context.request("direct:json", { json: catalog, path: "$..price" })).toBe("[12,4]");
    expect(await context.request("direct:xml", { xml: atom, xpath: "count(//entry)" })).toBe("2");
    expect(await context.request("direct:regex", { text: "a1b22", pattern: "\\d+", all: true })).toBe(
      '["1","22"]',
    );
    expect(await context.request("direct:math", { expression: "2 * (3 + 4)" })).toBe("14");
    expect(await context.request("direct:math", "sqrt(16)")).toBe("4");
  });

  it("leaves a null body when xpath matches nothing, so a filter can drop the message", async () => {
    context = await start((c) =>
      c.addRoutes((r) => {
        r.from("direct:in")
          .xpath({ xpath: "//summary" })
          .filter((exchange) => exchange.body !== null)
          .to("mock:kept");
      }),
    );
    expect(await context.request("direct:in", atom)).toBeNull();
    expect((context.endpoint("mock:kept") as MockEndpoint).received).toHaveLength(0);
  });

  it("is usable as a plain processor too", async () => {
    context = await start((c) =>
      c.addRoutes((r) => {
        r.from("direct:in").process(jsonPath({ path: "$.items[1].name" }));
        r.from("direct:x").process(xpath({ xpath: "string(//title)" }));
        r.from("direct:r").process(regexExtract({ pattern: "b+" }));
        r.from("direct:m")
          .jsonPath({ path: "$.formula" })
          .process((exchange) => {
            exchange.body = JSON.parse(exchange.body) as string;
          })
          .process(mathEval());
      }),
    );
    expect(await context.request("direct:in", catalog)).toBe('"Bell"');
    expect(await context.request("direct:x", atom)).toBe("First post");
    expect(await context.request("direct:r", "abbbc")).toBe('"bbb"');
    expect(await context.request("direct:m", { formula: "1 / 0" })).toBe("null");
  });

  it("passes the exchange's signal down: its deadline ends a fetch that would otherwise wait", async () => {
    context = await start((c) =>
      c.addRoutes((r) => {
        r.from("direct:in").process(httpFetch({ allowPrivateNetwork: true, timeoutMs: 600_000 }));
      }),
    );
    const exchange = await context.requestExchange("direct:in", {
      body: `${server.origin}/stall`,
      timeoutMs: 200,
    });
    expect(exchange.error).toBeDefined();
    expect(server.requests.map((request) => request.url)).toEqual(["/stall"]);
  });
});

describe("tool step options are checked when the route is added", () => {
  it.each([
    [
      "jsonPath",
      (c: RouteContext) => c.addRoutes((r) => r.from("direct:a").jsonPath({ path: "$[?(" })),
      "json_path: option 'path' is invalid",
    ],
    [
      "xpath",
      (c: RouteContext) => c.addRoutes((r) => r.from("direct:a").xpath({ xpath: "//[" })),
      "xpath: option 'xpath' is invalid",
    ],
    [
      "httpFetch",
      (c: RouteContext) => c.addRoutes((r) => r.from("direct:a").httpFetch({ maxBytes: -1 })),
      "http_fetch: option 'maxBytes'",
    ],
    [
      "regexExtract",
      (c: RouteContext) => c.addRoutes((r) => r.from("direct:a").regexExtract({ maxMatches: 0 })),
      "regex_extract: option 'maxMatches'",
    ],
    [
      "mathEval",
      (c: RouteContext) => c.addRoutes((r) => r.from("direct:a").mathEval({ timeoutMs: 0 })),
      "math_eval: option 'timeoutMs'",
    ],
  ])("%s", async (_name, add, message) => {
    const fresh = createContext();
    await expect(add(fresh)).rejects.toThrow(message);
    await fresh.stop();
  });

  it("tavilyWebSearch without a key", async () => {
    vi.stubEnv("TAVILY_API_KEY", "");
    const fresh = createContext();
    await expect(fresh.addRoutes((r) => r.from("direct:a").tavilyWebSearch())).rejects.toThrow(
      "web_search: no Tavily API key",
    );
    await fresh.stop();
  });
});
