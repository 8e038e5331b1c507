import { createContext, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { LlmError, llm, llmPlugin, openAiChat, providerQuota, runToolLoop } from "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";
import { openAiTextReply } from "./support/openai-server.js";

let context: RouteContext | undefined;
let server: LoopbackServer | undefined;
afterEach(async () => {
  await context?.stop();
  await server?.close();
  context = undefined;
  server = undefined;
});

describe("providerQuota in one process (the memory store)", () => {
  it("fails fast past the quota when whenLimited is 'fail', naming the key", async () => {
    server = await startLoopbackServer(() => ({ json: openAiTextReply("ok") }));
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" });
    const quota = providerQuota({ requestsPerMinute: 60, whenLimited: "fail" });

    await runToolLoop({ model, tools: new Map(), input: "one", quota });
    const second = runToolLoop({ model, tools: new Map(), input: "two", quota });

    await expect(second).rejects.toThrow(
      /^provider quota 'openai\/gpt-4o-mini': the quota allows no call now/,
    );
    await expect(second).rejects.toBeInstanceOf(LlmError);
    expect(server.requests.length).toBe(1);
  });

  it("keeps a bucket per tenant with perTenant, from the plugin's tenantHeader", async () => {
    server = await startLoopbackServer(() => ({ json: openAiTextReply("ok") }));
    const created = createContext();
    context = created;
    created.use(
      llmPlugin({
        models: { openai: openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" }) },
        tenantHeader: "x-tenant",
        quota: providerQuota({ requestsPerMinute: 60, whenLimited: "fail", perTenant: true }),
      }),
    );
    await created.addRoutes((r) => r.from("direct:ask").to(llm("openai").uri()));
    await created.start();

    const acme = await created.requestExchange("direct:ask", { body: "a", headers: { "x-tenant": "acme" } });
    const globex = await created.requestExchange("direct:ask", {
      body: "b",
      headers: { "x-tenant": "globex" },
    });
    const again = await created.requestExchange("direct:ask", { body: "c", headers: { "x-tenant": "acme" } });

    expect(acme.error).toBeUndefined();
    expect(globex.error).toBeUndefined();
    expect(again.error?.message).toMatch(/provider quota 'openai\/gpt-4o-mini\/acme'/);
  });

  it("a waiting call gives up at the run's deadline instead of waiting past it", async () => {
    server = await startLoopbackServer(() => ({ json: openAiTextReply("ok") }));
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" });
    const quota = providerQuota({ requestsPerMinute: 1 });

    await runToolLoop({ model, tools: new Map(), input: "one", quota });
    await expect(
      runToolLoop({ model, tools: new Map(), input: "two", quota, timeoutMs: 100 }),
    ).rejects.toThrow(/timeoutMs of 100 ms passed/);
    expect(server.requests.length).toBe(1);
  });

  it("refuses malformed options, naming the option and what was found", () => {
    expect(() => providerQuota({})).toThrow(
      "providerQuota: set requestsPerMinute, tokensPerMinute or both (found neither)",
    );
    expect(() => providerQuota({ requestsPerMinute: -5 })).toThrow(
      "providerQuota: option 'requestsPerMinute' must be a number > 0, got -5",
    );
    expect(() => providerQuota({ tokensPerMinute: 100, whenLimited: "queue" as "wait" })).toThrow(
      `providerQuota: option 'whenLimited' must be "wait" or "fail", got "queue"`,
    );
  });
});
