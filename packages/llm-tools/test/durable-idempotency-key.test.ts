import { createContext, createMemoryCheckpointStore, type RouteContext } from "@routekit/core";
import { LLM_RUN_ID_HEADER, llm, llmPlugin } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HttpFetchTool, httpTool } from "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

let server: LoopbackServer;
let context: RouteContext | undefined;

beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ ok: true, path: request.url }));
  });
});
afterAll(() => server.close());
afterEach(async () => {
  await context?.stop();
  context = undefined;
  server.requests.length = 0;
});

/** A context whose `direct:agent` runs one turn calling `charge` (httpTool) and `http_fetch`, then answers. */
async function agent(options: { durable: boolean; chargeHeaders?: Record<string, string> }) {
  const model = scriptedModel([
    {
      toolCalls: [
        { id: "call_charge", name: "charge", arguments: { order: "A-1" } },
        { id: "call_fetch", name: "http_fetch", arguments: { url: `${server.origin}/page` } },
      ],
    },
    { text: "done" },
  ]);
  const started = createContext();
  started.use(
    llmPlugin({
      models: { m: model },
      durable: { store: createMemoryCheckpointStore(), recoverEveryMs: 0 },
    }),
  );
  started.tools.register(
    httpTool({
      name: "charge",
      description: "Charges an order.",
      method: "POST",
      url: `${server.origin}/charges`,
      inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
      ...(options.chargeHeaders === undefined ? {} : { headers: options.chargeHeaders }),
    }),
  );
  await started.addRoutes(new HttpFetchTool({ allowPrivateNetwork: true }));
  const step = llm("m").tools("charge", "http_fetch");
  await started.addRoutes((r) => r.from("direct:agent").to((options.durable ? step.durable() : step).uri()));
  await started.start();
  context = started;
  return { context: started, model };
}

function keysByPath(): Record<string, unknown> {
  return Object.fromEntries(
    server.requests.map((request) => [request.url, request.headers["idempotency-key"]]),
  );
}

describe("a durable run's effect key reaches httpTool and http_fetch as Idempotency-Key", () => {
  it("sends <run id>:<turn>:<call id> on each call of a durable run", async () => {
    const { context: started } = await agent({ durable: true });
    const answer = await started.request("direct:agent", "charge A-1", { [LLM_RUN_ID_HEADER]: "order-7" });
    expect(answer).toBe("done");
    expect(keysByPath()).toEqual({
      "/charges": "order-7:1:call_charge",
      "/page": "order-7:1:call_fetch",
    });
  });

  it("sends no Idempotency-Key when the run is not durable", async () => {
    const { context: started } = await agent({ durable: false });
    await started.request("direct:agent", "charge A-1");
    expect(server.requests).toHaveLength(2);
    expect(keysByPath()).toEqual({ "/charges": undefined, "/page": undefined });
  });

  it("keeps an Idempotency-Key the tool sets itself", async () => {
    const { context: started } = await agent({ durable: true, chargeHeaders: { "Idempotency-Key": "mine" } });
    await started.request("direct:agent", "charge A-1", { [LLM_RUN_ID_HEADER]: "order-8" });
    expect(keysByPath()).toEqual({ "/charges": "mine", "/page": "order-8:1:call_fetch" });
  });

  it("sends nothing when the key cannot be a header value, and the model reads why", async () => {
    const { context: started, model } = await agent({ durable: true });
    await started.request("direct:agent", "charge A-1", { [LLM_RUN_ID_HEADER]: "order\r\nx-injected: 1" });
    expect(server.requests).toHaveLength(0);
    const toolMessage = model.requests[1]?.messages.at(-1);
    const outputs = JSON.stringify(toolMessage);
    expect(outputs).toContain("cannot be sent as Idempotency-Key");
    expect(outputs).toContain("the request was not sent");
  });
});
