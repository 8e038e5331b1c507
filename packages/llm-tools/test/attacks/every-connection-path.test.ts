import { createContext, type RouteContext } from "@routekit/core";
import { llm, llmPlugin } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createGuardedDispatcher,
  fetchText,
  HttpFetchTool,
  httpTool,
  LlmToolsError,
  runHttpFetch,
  runWebSearch,
  TavilyWebSearchTool,
  tavilySearch,
} from "../../src/index.js";
import { requestFailure } from "../support/tool-context.js";
import { type CanaryServer, startCanaryServer } from "./support/canary-server.js";
import { createLoopbackDialer, tableLookup } from "./support/loopback-dialer.js";

// Walks every code path of this package that can open a connection, each aimed at the loopback
// canary through a '//' path or a redirect, and asserts the canary accepted no socket.

let canary: CanaryServer;
let context: RouteContext | undefined;
const targets = (port: number): string[] => [
  `http://127.0.0.1:${port}//x/`,
  `http://[::1]:${port}//x/`,
  `http://2130706433:${port}//x/`,
  `http://0.0.0.0:${port}//x/`,
];

beforeAll(async () => {
  canary = await startCanaryServer();
});
afterAll(() => canary.close());
afterEach(async () => {
  await context?.stop();
  context = undefined;
  expect(canary.connections).toBe(0);
  canary.reset();
});

async function expectGuardRefusal(promise: Promise<unknown>, where: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, where).toBeInstanceOf(LlmToolsError);
  expect((error as LlmToolsError).code, where).toBe("TOOL_GUARD_REFUSED");
}

describe("every connection path refuses loopback through a '//' path", () => {
  it("fetchText and runHttpFetch (object, JSON text and plain URL bodies)", async () => {
    for (const url of targets(canary.port)) {
      await expectGuardRefusal(fetchText(url, {}), url);
      await expectGuardRefusal(runHttpFetch({ url }, {}), url);
      await expectGuardRefusal(runHttpFetch(JSON.stringify({ url }), {}), url);
      await expectGuardRefusal(runHttpFetch(url, {}), url);
    }
  });

  it("the .httpFetch() step of a route", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:fetch").httpFetch());
    await context.start();
    for (const url of targets(canary.port)) {
      const error = await requestFailure(context, "direct:fetch", url);
      expect((error as LlmToolsError).code, url).toBe("TOOL_GUARD_REFUSED");
    }
  });

  it("the HttpFetchTool wrapper, called directly and by a model", async () => {
    const calls = targets(canary.port).map((url) => ({ name: "http_fetch", arguments: { url } }));
    const model = scriptedModel([{ toolCalls: calls }, { text: "done" }]);
    context = createContext();
    context.use(llmPlugin({ models: { scripted: model } }));
    await context.addRoutes(new HttpFetchTool());
    await context.addRoutes((r) => r.from("direct:ask").to(llm("scripted").tools("http_fetch").uri()));
    await context.start();
    for (const url of targets(canary.port)) {
      const error = await requestFailure(context, "direct:llm.http_fetch", { url });
      expect((error as LlmToolsError).code, url).toBe("TOOL_GUARD_REFUSED");
    }
    expect(await context.request("direct:ask", "fetch them")).toBe("done");
    const results = model.requests[1]?.messages.at(-1);
    expect(results).toMatchObject({
      role: "tool",
      results: calls.map(() => ({ name: "http_fetch", isError: true })),
    });
    expect(JSON.stringify(results)).toContain("refused");
  });

  it("httpTool with a guarded dispatcher, on its URL and on a redirect hop", async () => {
    const dispatcher = createGuardedDispatcher({ toolName: "probe" });
    for (const url of targets(canary.port)) {
      const tool = httpTool({ name: "probe", url, dispatcher });
      const result = await tool.execute({});
      expect(result.isError, url).toBe(true);
      expect(result.output, url).toContain("probe: refused");
    }
    await dispatcher.close();
    // A public-looking API (dialled on loopback by the test dialer) redirects to the canary.
    const api = await startCanaryServer((_request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${canary.port}//x/`, connection: "close" });
      response.end();
    });
    const dialer = createLoopbackDialer(api.port);
    const redirecting = createGuardedDispatcher({
      toolName: "probe",
      lookup: tableLookup({ "api.example.test": ["93.184.216.34"] }),
      connect: dialer.connect,
    });
    const tool = httpTool({ name: "probe", url: "http://api.example.test/items", dispatcher: redirecting });
    const result = await tool.execute({});
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toContain(`probe: refused redirect to http://127.0.0.1:${canary.port}//x/`);
    expect(dialer.dialled).toEqual(["93.184.216.34:80"]);
    await redirecting.close();
    await api.close();
  });

  it("httpTool placeholders cannot change the host the tool connects to", async () => {
    const seen: string[] = [];
    const server = await startCanaryServer((request, response) => {
      seen.push(request.url ?? "");
      response.end("ok");
    });
    const tool = httpTool({ name: "item", url: `http://127.0.0.1:${server.port}/items/{id}` });
    for (const id of [`//127.0.0.1:${canary.port}/`, `@127.0.0.1:${canary.port}`, "../../admin", "x?y=1#z"]) {
      expect((await tool.execute({ id })).isError).toBe(false);
    }
    expect(seen).toEqual([
      "/items/%2F%2F127.0.0.1%3A" + `${canary.port}%2F`,
      `/items/%40127.0.0.1%3A${canary.port}`,
      "/items/..%2F..%2Fadmin",
      "/items/x%3Fy%3D1%23z",
    ]);
    await server.close();
  });

  it("web_search (tavilySearch, runWebSearch and the wrapper) with a guarded dispatcher", async () => {
    const dispatcher = createGuardedDispatcher({ toolName: "web_search" });
    for (const base of [`http://127.0.0.1:${canary.port}`, `http://[::1]:${canary.port}`]) {
      const options = { apiKey: "tvly-test-key", baseUrl: base, dispatcher };
      await expectGuardRefusal(tavilySearch({ query: "q" }, options), base);
      await expectGuardRefusal(runWebSearch({ query: "q" }, options), base);
    }
    context = createContext();
    await context.addRoutes(
      new TavilyWebSearchTool({
        apiKey: "tvly-test-key",
        baseUrl: `http://127.0.0.1:${canary.port}`,
        dispatcher,
      }),
    );
    await context.start();
    const error = await requestFailure(context, "direct:llm.web_search", { query: "q" });
    expect((error as LlmToolsError).code).toBe("TOOL_GUARD_REFUSED");
    await context.stop();
    context = undefined;
    await dispatcher.close();
  });
});
