import { createContext } from "@routekit/core";
import "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { describe, expect, it, vi } from "vitest";
import type { ToolCallResult } from "../src/model-types.js";
import { runToolLoop, type ToolLoopEvent } from "../src/tool-loop/index.js";
import type { ToolCallContext } from "../src/tool-types.js";
import { addTool, nativeTool, toolMap, weatherTool } from "./support/test-tools.js";

/** The results the loop sent back after the first model turn. */
function firstResults(messages: readonly { role: string }[]): ToolCallResult[] {
  const message = messages.find((candidate) => candidate.role === "tool");
  if (message === undefined || !("results" in message))
    throw new Error("no tool message in the conversation");
  return message.results as ToolCallResult[];
}

describe("runToolLoop: tool failures become results the model reads", () => {
  it("answers a schema failure with the failing paths", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "add", arguments: { a: "two", b: 3 } }] },
      { text: "ok" },
    ]);

    const result = await runToolLoop({ model, tools: toolMap(addTool()), input: "2+3" });

    const [answer] = firstResults(result.messages);
    expect(answer?.isError).toBe(true);
    expect(answer?.output).toMatch(/^invalid arguments for tool 'add': .*\/a must be number/);
    expect(result.text).toBe("ok");
  });

  it("answers an unknown tool by listing the known ones", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: "multiply", arguments: {} }] }, { text: "ok" }]);

    const result = await runToolLoop({ model, tools: toolMap(addTool(), weatherTool()), input: "x" });

    expect(firstResults(result.messages)).toEqual([
      {
        callId: "call_1",
        name: "multiply",
        output: "unknown tool 'multiply'; known tools: add, get_weather",
        isError: true,
      },
    ]);
  });

  it("answers arguments that are not JSON", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: "add", arguments: "{a: 1" }] }, { text: "ok" }]);

    const result = await runToolLoop({ model, tools: toolMap(addTool()), input: "x" });

    const [answer] = firstResults(result.messages);
    expect(answer?.isError).toBe(true);
    expect(answer?.output).toMatch(
      /^arguments for tool 'add' are not valid JSON \(.+\); send a JSON object$/,
    );
  });

  it("answers a throwing tool with its message (the default safe policy)", async () => {
    const broken = nativeTool("broken", { type: "object" }, async () => {
      throw new TypeError("cannot read the ledger");
    });
    const model = scriptedModel([{ toolCalls: [{ name: "broken", arguments: {} }] }, { text: "sorry" }]);

    const result = await runToolLoop({ model, tools: toolMap(broken), input: "x" });

    expect(firstResults(result.messages)[0]).toMatchObject({
      output: '{"error":"cannot read the ledger"}',
      isError: true,
    });
  });

  it("answers a hanging tool once its timeout passes, and aborts its signal", async () => {
    let seen: ToolCallContext | undefined;
    const hanging = nativeTool("hanging", { type: "object" }, (_args, context) => {
      seen = context;
      return new Promise(() => {});
    });
    const model = scriptedModel([{ toolCalls: [{ name: "hanging", arguments: {} }] }, { text: "gave up" }]);

    const result = await runToolLoop({ model, tools: toolMap(hanging), input: "x", toolTimeoutMs: 100 });

    expect(firstResults(result.messages)[0]).toEqual({
      callId: "call_1",
      name: "hanging",
      output: "tool 'hanging' timed out after 100 ms",
      isError: true,
    });
    expect(seen?.timeoutMs).toBe(100);
    expect(seen?.signal?.aborted).toBe(true);
    expect(result.text).toBe("gave up");
  });

  it("aborts a tool route's exchange at the call's timeout, through the loop's one deadline", async () => {
    const context = createContext({ name: "route-timeout", logLevel: "error" });
    let reason: unknown;
    const timers = process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    await context.addRoutes((r) => {
      r.from("direct:waits")
        .asLlmTool("waits", { description: "Waits for its signal." })
        .process(async (exchange) => {
          await new Promise<void>((resolve) => {
            exchange.signal.addEventListener("abort", () => resolve(), { once: true });
          });
          reason = exchange.signal.reason;
        });
    });
    await context.start();
    try {
      const waits = context.tools.get("waits");
      if (waits === undefined) throw new Error("the route's tool is not registered");
      const model = scriptedModel([{ toolCalls: [{ name: "waits", arguments: {} }] }, { text: "gave up" }]);
      const result = await runToolLoop({ model, tools: toolMap(waits), input: "x", toolTimeoutMs: 100 });
      expect(firstResults(result.messages)[0]?.output).toBe("tool 'waits' timed out after 100 ms");
      await vi.waitFor(() => expect(reason).toBeInstanceOf(DOMException));
      expect((reason as DOMException).name).toBe("TimeoutError");
    } finally {
      await context.stop();
    }
    expect(process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length).toBeLessThanOrEqual(
      timers,
    );
  });

  it("answers a tool that returns something other than a ToolResult", async () => {
    const sloppy = nativeTool("sloppy", { type: "object" }, async () => "plain text" as never);
    const model = scriptedModel([{ toolCalls: [{ name: "sloppy", arguments: {} }] }, { text: "ok" }]);

    const result = await runToolLoop({ model, tools: toolMap(sloppy), input: "x" });

    expect(firstResults(result.messages)[0]?.output).toBe(
      "tool 'sloppy' returned string, expected { output: string, isError: boolean }",
    );
  });

  it("passes only declared arguments, the call id and the allowed headers to the tool", async () => {
    let received: { args: Record<string, unknown>; context?: ToolCallContext } | undefined;
    const tool = weatherTool();
    const spy = nativeTool(tool.name, tool.inputSchema, async (args, context) => {
      received = { args, context };
      return { output: "ok", isError: false };
    });
    const model = scriptedModel([
      { toolCalls: [{ id: "c-7", name: "get_weather", arguments: { city: "Oslo", role: "admin" } }] },
      { text: "done" },
    ]);

    await runToolLoop({ model, tools: toolMap(spy), input: "x", toolContext: { headers: { tenant: "t1" } } });

    expect(received?.args).toEqual({ city: "Oslo" });
    expect(received?.context).toMatchObject({ callId: "c-7", headers: { tenant: "t1" } });
  });
});

describe("runToolLoop: iterations and concurrency", () => {
  it("stops with max_iterations, the text so far and every call answered", async () => {
    let runs = 0;
    const counter = nativeTool("count", { type: "object" }, async () => ({
      output: String(++runs),
      isError: false,
    }));
    const model = scriptedModel([
      { text: "Counting.", toolCalls: [{ name: "count", arguments: {} }] },
      { toolCalls: [{ name: "count", arguments: {} }] },
      { toolCalls: [{ name: "count", arguments: {} }] },
    ]);

    const result = await runToolLoop({
      model,
      tools: toolMap(counter),
      input: "count forever",
      maxIterations: 3,
    });

    expect(result).toMatchObject({
      stopReason: "max_iterations",
      iterations: 3,
      toolCalls: 3,
      text: "Counting.",
    });
    expect(runs).toBe(3);
    expect(result.messages.at(-1)).toMatchObject({ role: "tool" });
    expect(model.requests).toHaveLength(3);
  });

  it("runs the calls of one turn concurrently by default and one by one when asked", async () => {
    const measure = async (parallelToolCalls: boolean) => {
      let active = 0;
      let peak = 0;
      const tool = nativeTool("work", { type: "object" }, async () => {
        active += 1;
        peak = Math.max(peak, active);
        await new Promise((resolve) => setTimeout(resolve, 20));
        active -= 1;
        return { output: "done", isError: false };
      });
      const calls = [1, 2, 3].map(() => ({ name: "work", arguments: {} }));
      const model = scriptedModel([{ toolCalls: calls }, { text: "ok" }]);
      const result = await runToolLoop({ model, tools: toolMap(tool), input: "x", parallelToolCalls });
      expect(model.requests[0]?.parallelToolCalls).toBe(parallelToolCalls);
      expect(firstResults(result.messages).map((answer) => answer.callId)).toEqual([
        "call_1",
        "call_2",
        "call_3",
      ]);
      return peak;
    };

    expect(await measure(true)).toBe(3);
    expect(await measure(false)).toBe(1);
  });

  it("continues a conversation without changing the caller's list, and sums usage", async () => {
    const input = [
      { role: "user" as const, content: "Hi" },
      { role: "assistant" as const, content: "Hello!" },
      { role: "user" as const, content: "2+3?" },
    ];
    const model = scriptedModel([
      { toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }], usage: { inputTokens: 7, outputTokens: 3 } },
      { text: "5", usage: { inputTokens: 11, outputTokens: 1 } },
    ]);

    const result = await runToolLoop({ model, tools: toolMap(addTool()), input, system: "Be exact." });

    expect(input).toHaveLength(3);
    expect(result.messages).toHaveLength(6);
    expect(result.usage).toEqual({ inputTokens: 18, outputTokens: 4 });
    expect(model.requests[0]).toMatchObject({ system: "Be exact.", messages: input });
    expect(model.requests[1]?.messages).toHaveLength(5);
  });

  it("maps the model's stop reason", async () => {
    const model = scriptedModel([{ text: "[filtered]", stopReason: "content_filter" }]);

    const result = await runToolLoop({ model, tools: new Map(), input: "x" });

    expect(result).toMatchObject({ stopReason: "content_filter", iterations: 1, toolCalls: 0 });
    expect(model.requests[0]?.parallelToolCalls).toBeUndefined();
  });
});

describe("runToolLoop: events", () => {
  const run = async (includeContent: boolean) => {
    const events: ToolLoopEvent[] = [];
    const model = scriptedModel(
      [
        {
          toolCalls: [{ name: "add", arguments: { a: 1, b: 2 } }],
          usage: { inputTokens: 4, outputTokens: 2 },
        },
        { text: "3" },
      ],
      { provider: "test", model: "m1" },
    );
    await runToolLoop({
      model,
      tools: toolMap(addTool()),
      input: "x",
      onEvent: (event) => events.push(event),
      includeContent,
    });
    return events;
  };

  it("reports model and tool calls, without content unless asked", async () => {
    const events = await run(false);

    expect(events.map((event) => event.type)).toEqual([
      "model-call-started",
      "model-call-completed",
      "tool-call-started",
      "tool-call-completed",
      "model-call-started",
      "model-call-completed",
    ]);
    expect(events[1]).toMatchObject({
      provider: "test",
      model: "m1",
      iteration: 1,
      usage: { inputTokens: 4, outputTokens: 2 },
      stopReason: "tool_calls",
      durationMs: expect.any(Number),
    });
    expect(events[3]).toMatchObject({ toolName: "add", callId: "call_1", iteration: 1, isError: false });
    expect(events[3]).not.toHaveProperty("arguments");
    expect(events[3]).not.toHaveProperty("output");
  });

  it("carries arguments and output with includeContent", async () => {
    const events = await run(true);

    expect(events[2]).toMatchObject({ type: "tool-call-started", arguments: '{"a":1,"b":2}' });
    expect(events[3]).toMatchObject({ type: "tool-call-completed", arguments: '{"a":1,"b":2}', output: "3" });
  });

  it("reports a failed model call and rejects with its error", async () => {
    const events: ToolLoopEvent[] = [];
    const failure = new Error("model exploded");
    const model = scriptedModel([
      () => {
        throw failure;
      },
    ]);

    await expect(
      runToolLoop({ model, tools: new Map(), input: "x", onEvent: (event) => events.push(event) }),
    ).rejects.toBe(failure);
    expect(events.at(-1)).toMatchObject({ type: "model-call-failed", iteration: 1, error: failure });
  });
});

describe("runToolLoop: cancellation", () => {
  it("aborts the tool calls in flight when the caller aborts", async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const hanging = nativeTool("hanging", { type: "object" }, (_args, context) => {
      toolSignal = context?.signal;
      setTimeout(() => controller.abort(new Error("caller left")), 10);
      return new Promise(() => {});
    });
    const model = scriptedModel([{ toolCalls: [{ name: "hanging", arguments: {} }] }, { text: "never" }]);

    await expect(
      runToolLoop({ model, tools: toolMap(hanging), input: "x", signal: controller.signal }),
    ).rejects.toThrow("caller left");
    expect(toolSignal?.aborted).toBe(true);
    expect(model.requests).toHaveLength(1);
  });

  it("ends a run that outlives timeoutMs with LOOP_LIMIT, cancelling the model call", async () => {
    let modelSignal: AbortSignal | undefined;
    const model = scriptedModel([
      (request) => {
        modelSignal = request.signal;
        return new Promise((_resolve, reject) => {
          request.signal?.addEventListener("abort", () => reject(request.signal?.reason));
        });
      },
    ]);

    await expect(runToolLoop({ model, tools: new Map(), input: "x", timeoutMs: 50 })).rejects.toMatchObject({
      code: "LOOP_LIMIT",
      message:
        "runToolLoop: the run's timeoutMs of 50 ms passed during iteration 1 (model scripted/scripted-model)",
    });
    expect(modelSignal?.aborted).toBe(true);
  });

  it("does not call the model when the signal has already fired", async () => {
    const model = scriptedModel([{ text: "never" }]);
    const reason = new Error("too late");

    await expect(
      runToolLoop({ model, tools: new Map(), input: "x", signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(model.requests).toHaveLength(0);
  });
});

describe("runToolLoop: options", () => {
  it("names the bad option", async () => {
    const model = scriptedModel([]);
    const tools = new Map();
    await expect(runToolLoop({ model, tools, input: "x", maxIterations: 0 })).rejects.toThrow(
      "runToolLoop: option 'maxIterations' must be an integer >= 1, got 0",
    );
    await expect(runToolLoop({ model, tools, input: "" })).rejects.toThrow(
      "runToolLoop: option 'input' must be a non-empty prompt or a message list, got an empty string",
    );
    await expect(runToolLoop({ model, tools: [] as never, input: "x" })).rejects.toThrow(
      "runToolLoop: option 'tools' must be a Map of tool name to Tool, got an empty array",
    );
    await expect(runToolLoop({ model: {} as never, tools, input: "x" })).rejects.toMatchObject({
      code: "OPTION_INVALID",
      message: expect.stringContaining("option 'model' must be a LanguageModel"),
    });
    await expect(runToolLoop({ model, tools, input: "x", toolTimeoutMs: -5 })).rejects.toThrow(
      "option 'toolTimeoutMs' must be a number of milliseconds > 0, got -5",
    );
  });
});
