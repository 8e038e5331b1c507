import { createContext, RouteBuilder, type RouteContext, RoutekitError } from "@routekit/core";
import { LLM_HEADERS, LlmError, llm, llmPlugin, openAiChat, toTool } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";
import { openAiTextReply, openAiToolCallReply } from "./support/openai-server.js";

let context: RouteContext;
let server: LoopbackServer | undefined;
afterEach(async () => {
  await context?.stop();
  await server?.close();
  server = undefined;
});

class ToolRoutes extends RouteBuilder {
  override configure(): void {
    this.from("direct:llm.math_eval")
      .asLlmTool("math_eval", {
        description: "Evaluate an arithmetic expression.",
        input: {
          type: "object",
          properties: { expression: { type: "string" } },
          required: ["expression"],
          additionalProperties: false,
        },
      })
      .setHeader("seenCaller", (exchange) => exchange.headers.caller ?? "not allowed")
      .transform((exchange) => {
        const [left, right] = String(exchange.body.expression).split("*").map(Number);
        return String((left ?? 0) * (right ?? 0));
      });
    this.from("direct:llm.fail")
      .asLlmTool("fail", { description: "Always fails." })
      .process(() => {
        throw new TypeError("no luck");
      });
    this.from("direct:ask").to(llm("openai").tools("math_eval", "fail").maxIterations(6).uri());
  }
}

describe("the LLM step against a loopback OpenAI-compatible server", () => {
  it("runs the DESIGN.md §3 snippet: a tool call dispatched to its route, then the answer", async () => {
    server = await startLoopbackServer([
      { json: openAiToolCallReply([{ id: "call_1", name: "math_eval", arguments: '{"expression":"6*7"}' }]) },
      { json: openAiTextReply("The answer is 42.") },
    ]);
    context = createContext();
    context.use(
      llmPlugin({
        models: { openai: openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" }) },
      }),
    );
    await context.addRoutes(new ToolRoutes());
    await context.start();
    const exchange = await context.requestExchange("direct:ask", {
      body: "What is 6 times 7?",
      headers: { caller: "secret" },
    });
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toBe("The answer is 42.");
    expect(exchange.headers[LLM_HEADERS.provider]).toBe("openai");
    expect(exchange.headers[LLM_HEADERS.model]).toBe("gpt-4o-mini");
    expect(exchange.headers[LLM_HEADERS.tokensIn]).toBe(30);
    expect(exchange.headers[LLM_HEADERS.tokensOut]).toBe(13);
    expect(exchange.headers[LLM_HEADERS.stopReason]).toBe("stop");
    expect(exchange.headers[LLM_HEADERS.iterations]).toBe(2);
    const second = server.requests[1]?.body as { messages: Array<Record<string, unknown>>; tools: unknown[] };
    expect(second.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: "42" });
    expect(second.tools).toHaveLength(2);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test");
  });

  it("gives the tool route a new exchange: arguments as body, tool headers, no caller headers unless allowed", async () => {
    const seen: Array<Record<string, unknown>> = [];
    const model = scriptedModel([{ toolCalls: [{ name: "peek", arguments: { q: 1 } }] }, { text: "done" }]);
    context = createContext();
    context.use(llmPlugin({ models: { scripted: model } }));
    await context.addRoutes((r) => {
      r.from("direct:peek")
        .asLlmTool("peek", { description: "Shows what a tool route sees." })
        .transform((exchange) => {
          seen.push({ body: exchange.body, headers: { ...exchange.headers }, id: exchange.id });
          return "ok";
        });
      r.from("direct:ask").to(llm("scripted").tools("peek").allowHeaders("tenant").uri());
    });
    await context.start();
    const exchange = await context.requestExchange("direct:ask", {
      body: "go",
      headers: { tenant: "t1", token: "secret" },
    });
    expect(exchange.body).toBe("done");
    expect(seen).toHaveLength(1);
    expect(seen[0]?.body).toEqual({ q: 1 });
    expect(seen[0]?.headers).toMatchObject({ tenant: "t1", "llm.tool.name": "peek" });
    expect(seen[0]?.headers).not.toHaveProperty("token");
    expect(typeof (seen[0]?.headers as Record<string, unknown> | undefined)?.["llm.tool.call_id"]).toBe(
      "string",
    );
    expect(seen[0]?.id).not.toBe(exchange.id);
  });

  it("turns a throwing tool route into an error result the model reads", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: "fail", arguments: {} }] }, { text: "sorry" }]);
    context = createContext();
    context.use(llmPlugin({ models: { openai: model } }));
    await context.addRoutes(new ToolRoutes());
    await context.start();
    expect(await context.request("direct:ask", "try it")).toBe("sorry");
    const toolMessage = model.requests[1]?.messages.at(-1);
    expect(toolMessage).toEqual({
      role: "tool",
      results: [
        // The default "safe" policy: the message without the class name (toolErrors tests the rest).
        expect.objectContaining({ isError: true, output: '{"error":"no luck"}', name: "fail" }),
      ],
    });
  });

  it("stops at maxIterations with a visible reason", async () => {
    const model = scriptedModel(
      Array.from({ length: 5 }, () => ({
        toolCalls: [{ name: "math_eval", arguments: { expression: "1*1" } }],
      })),
    );
    context = createContext();
    context.use(llmPlugin({ models: { openai: model } }));
    await context.addRoutes(new ToolRoutes());
    await context.addRoutes((r) =>
      r.from("direct:loop").to(llm("openai").useAllTools().maxIterations(2).uri()),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:loop", { body: "loop forever" });
    expect(exchange.headers[LLM_HEADERS.stopReason]).toBe("max_iterations");
    expect(exchange.headers[LLM_HEADERS.iterations]).toBe(2);
  });

  it("makes non-route tools registered on the context callable", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "echo", arguments: { msg: "hi" } }] },
      { text: "echoed" },
    ]);
    context = createContext();
    context.use(llmPlugin({ models: { m: model } }));
    context.tools.register({
      name: "echo",
      description: "Echo the input back",
      params: { msg: { type: "string", required: true } },
      execute: ({ msg }: Record<string, unknown>) => `echo: ${String(msg)}`,
    });
    await context.addRoutes((r) => r.from("direct:ask").to(llm("m").tools("echo").uri()));
    await context.start();
    expect(await context.request("direct:ask", "say hi")).toBe("echoed");
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      results: [{ output: "echo: hi", isError: false }],
    });
    expect(context.tools.get("echo")).toBe(context.tools.get("echo"));
    expect(toTool(context.tools.get("echo"))).toBe(context.tools.get("echo"));
  });
});

describe("events and cancellation", () => {
  it("forwards model and tool call events to context.events, with content only when asked", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "math_eval", arguments: { expression: "2*3" } }] },
      { text: "6" },
    ]);
    context = createContext();
    context.use(llmPlugin({ models: { openai: model } }));
    await context.addRoutes(new ToolRoutes());
    await context.addRoutes((r) =>
      r.from("direct:traced").routeId("traced").to(llm("openai").tools("math_eval").includeContent().uri()),
    );
    const seen: string[] = [];
    context.events.on("model-call-completed", (event) =>
      seen.push(`model ${event.iteration} ${event.routeId}`),
    );
    context.events.on("tool-call-started", (event) =>
      seen.push(`start ${event.toolName} ${event.arguments ?? "-"}`),
    );
    context.events.on("tool-call-completed", (event) =>
      seen.push(`done ${event.toolName} ${event.output ?? "-"} ${event.isError}`),
    );
    await context.start();
    expect(await context.request("direct:traced", "2 times 3?")).toBe("6");
    expect(seen).toEqual([
      "model 1 traced",
      'start math_eval {"expression":"2*3"}',
      "done math_eval 6 false",
      "model 2 traced",
    ]);
    seen.length = 0;
    await context.request("direct:ask", "again?").catch(() => undefined);
    expect(seen.filter((line) => line.startsWith("start"))).toEqual([]);
  });

  it("the exchange's deadline cancels a hanging model call", async () => {
    server = await startLoopbackServer(() => "hang");
    context = createContext();
    context.use(
      llmPlugin({
        models: { openai: openAiChat({ model: "m", baseURL: server.url, apiKey: "sk-secret-key" }) },
      }),
    );
    await context.addRoutes((r) => r.from("direct:slow").to(llm("openai").uri()));
    await context.start();
    const started = Date.now();
    const exchange = await context.requestExchange("direct:slow", { body: "hello", timeoutMs: 200 });
    expect(exchange.error).toBeDefined();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(String(exchange.error?.message)).not.toContain("sk-secret-key");
  });
});

describe("bad configuration is refused clearly", () => {
  it("asLlmTool anywhere but right after from()", async () => {
    context = createContext();
    await expect(
      context.addRoutes((r) => r.from("direct:x").setBody("x").asLlmTool("x", { description: "d" })),
    ).rejects.toThrow("asLlmTool('x') must directly follow from(...)");
  });

  it("invalid names, blank descriptions and duplicates", async () => {
    context = createContext();
    await expect(
      context.addRoutes((r) => r.from("direct:x").asLlmTool("has space", { description: "d" })),
    ).rejects.toThrow("tool name must match");
    await expect(
      context.addRoutes((r) => r.from("direct:x").asLlmTool("ok", { description: "  " })),
    ).rejects.toThrow("needs a non-blank description");
    await context.addRoutes((r) => r.from("direct:one").asLlmTool("same", { description: "first" }));
    await expect(
      context.addRoutes((r) => r.from("direct:two").asLlmTool("same", { description: "second" })),
    ).rejects.toThrow(/same/);
    expect(context.routes().map((route) => route.from)).toEqual(["direct:one"]);
  });

  it("unknown models, unknown tools and bad options", async () => {
    context = createContext();
    context.use(llmPlugin({ models: { openai: scriptedModel([]) } }));
    await expect(context.addRoutes((r) => r.from("direct:a").to("llm:gpt"))).rejects.toThrow(
      "no model named 'gpt'; configured models: openai",
    );
    await expect(
      context.addRoutes((r) => r.from("direct:a").to("llm:openai?maxIteration=3")),
    ).rejects.toThrow("unknown option 'maxIteration' (did you mean maxIterations?)");
    await expect(
      context.addRoutes((r) => r.from("direct:a").to("llm:openai?maxIterations=0")),
    ).rejects.toThrow("option 'maxIterations' expects a value >= 1");
    await expect(context.addRoutes((r) => r.from("direct:a").to("llm:openai?temperature=3"))).rejects.toThrow(
      "option 'temperature' expects a value <= 2",
    );
    await context.addRoutes((r) => r.from("direct:b").to(llm("openai").tools("missing_tool").uri()));
    const failure = await context.start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RoutekitError);
    expect((failure as Error).message).toMatch(
      /^Route 'route\d+' step #1 to\(llm:openai\?tools=missing_tool\): unknown tool 'missing_tool'; no tools are registered$/,
    );
    expect((failure as Error).cause).toBeInstanceOf(LlmError);
  });

  it("a misspelt tool name in a route added after start fails addRoutes, naming the route and step", async () => {
    context = createContext({ logLevel: "off" });
    context.use(llmPlugin({ models: { openai: scriptedModel([]) } }));
    await context.addRoutes((r) =>
      r.from("direct:weather").asLlmTool("weather", { description: "The weather." }).setBody("sunny"),
    );
    await context.start();
    await expect(
      context.addRoutes((r) => r.from("direct:ask").routeId("ask").to(llm("openai").tools("wether").uri())),
    ).rejects.toThrow(
      "Route 'ask' step #1 to(llm:openai?tools=wether): unknown tool 'wether' (did you mean 'weather'?); known tools: weather",
    );
    expect(context.routes().map((route) => route.id)).not.toContain("ask");
  });

  it("a body that is neither a prompt nor messages", async () => {
    context = createContext();
    context.use(llmPlugin({ models: { m: scriptedModel([{ text: "x" }]) } }));
    await context.addRoutes((r) => r.from("direct:a").to("llm:m"));
    await context.start();
    await expect(context.request("direct:a", 42)).rejects.toThrow(
      "llm:m: expected the body to be a prompt string, a list of messages ({ role, content }) or a useChat request ({ messages: [{ role, parts }] }), found number",
    );
  });

  it("a missing API key for the default OpenAI URL fails at start", async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      context = createContext();
      context.use(llmPlugin({ models: { openai: openAiChat({ model: "gpt-4o-mini" }) } }));
      await context.addRoutes((r) => r.from("direct:a").to("llm:openai"));
      await expect(context.start()).rejects.toThrow(/OPENAI_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it("the URI builder", () => {
    expect(llm("openai").tools("math_eval", "json_path").maxIterations(6).uri()).toBe(
      "llm:openai?tools=math_eval,json_path&maxIterations=6",
    );
    expect(llm("x").systemPrompt("Be brief & exact").temperature(0.2).uri()).toBe(
      "llm:x?systemPrompt=Be%20brief%20%26%20exact&temperature=0.2",
    );
    expect(() => llm("")).toThrow("llm(model) expects a configured model name");
  });
});
