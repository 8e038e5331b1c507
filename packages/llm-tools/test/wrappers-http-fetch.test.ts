import type { RouteContext } from "@routekit/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HTTP_FETCH_INPUT_SCHEMA, HttpFetchTool, LlmToolsError, ToolInputError } from "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";
import { requestFailure, startToolContext } from "./support/tool-context.js";

let server: LoopbackServer;
let context: RouteContext | undefined;
beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    if (request.url === "/missing") {
      response.statusCode = 404;
      response.end("gone");
      return;
    }
    response.setHeader("content-type", "text/plain");
    response.end(request.url === "/big" ? "b".repeat(5000) : "fetched text");
  });
});
afterAll(() => server.close());
afterEach(async () => {
  await context?.stop();
  context = undefined;
  server.requests.length = 0;
});

describe("HttpFetchTool", () => {
  it("mounts http_fetch on direct:llm.http_fetch and answers objects and JSON text", async () => {
    context = await startToolContext(new HttpFetchTool({ allowPrivateNetwork: true }));
    const url = `${server.origin}/page`;
    expect(await context.request("direct:llm.http_fetch", { url })).toBe("fetched text");
    expect(await context.request("direct:llm.http_fetch", JSON.stringify({ url }))).toBe("fetched text");
    expect(server.requests.map((request) => request.url)).toEqual(["/page", "/page"]);
    expect(context.tools.get("http_fetch")?.inputSchema).toEqual(HTTP_FETCH_INPUT_SCHEMA);
  });

  it("sets the status, bytes and truncated headers", async () => {
    context = await startToolContext(new HttpFetchTool({ allowPrivateNetwork: true, maxBytes: 100 }));
    const exchange = await context.requestExchange("direct:llm.http_fetch", {
      body: { url: `${server.origin}/big` },
    });
    expect(exchange.body).toBe("b".repeat(100));
    expect(exchange.headers).toMatchObject({
      "llm.http_fetch.status": 200,
      "llm.http_fetch.bytes": 100,
      "llm.http_fetch.truncated": true,
    });
  });

  it("keeps its default guard: loopback is refused before any request", async () => {
    context = await startToolContext(new HttpFetchTool({ endpointUri: "direct:fetch" }));
    const error = await requestFailure(context, "direct:fetch", { url: `${server.origin}/page` });
    expect(error).toBeInstanceOf(LlmToolsError);
    expect((error as LlmToolsError).code).toBe("TOOL_GUARD_REFUSED");
    expect(server.requests).toEqual([]);
  });

  it("names the tool and the key for bad input, and the status for non-2xx", async () => {
    context = await startToolContext(new HttpFetchTool({ allowPrivateNetwork: true }));
    const missing = await requestFailure(context, "direct:llm.http_fetch", { address: "x" });
    expect(missing).toBeInstanceOf(ToolInputError);
    expect(missing.message).toBe("http_fetch: required key 'url' is missing");
    const notFound = await requestFailure(context, "direct:llm.http_fetch", {
      url: `${server.origin}/missing`,
    });
    expect(notFound.message).toContain("404");
  });

  it("refuses bad options at construction", () => {
    expect(() => new HttpFetchTool({ maxBytes: 0 })).toThrow("http_fetch: option 'maxBytes'");
  });
});
