import { afterEach, describe, expect, it, vi } from "vitest";
import { LlmError, type ToolCallContext, toTool } from "../src/tool-contract.js";

function toolReturning(handler: (args: Record<string, unknown>, context: ToolCallContext) => unknown) {
  return toTool({ name: "subject", execute: handler });
}

describe("adapted execute: results", () => {
  it.each([
    ["text", "plain text", "plain text"],
    ["an object", { a: 1, list: [true, null] }, '{"a":1,"list":[true,null]}'],
    ["a number", 0, "0"],
    ["null", null, "null"],
    ["undefined", undefined, ""],
    ["an array", ["x", 2], '["x",2]'],
  ])("turns %s into output", async (_kind, value, output) => {
    expect(await toolReturning(() => value).execute({})).toEqual({ output, isError: false });
  });

  it("awaits an async handler", async () => {
    expect(await toolReturning(async () => ({ ok: true })).execute({})).toEqual({
      output: '{"ok":true}',
      isError: false,
    });
  });

  it("passes a returned ToolResult through, metadata included", async () => {
    const result = { output: "not found", isError: true, metadata: { status: 404 } };
    expect(await toolReturning(() => result).execute({})).toEqual(result);
  });

  it("turns a value JSON cannot write into an error result", async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const result = await toolReturning(() => circular).execute({});
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /^tool 'subject' returned a value that cannot be written as JSON: TypeError: /,
    );
  });
});

describe("adapted execute: errors become results", () => {
  it("turns a synchronous throw into an error result", async () => {
    const tool = toolReturning(() => {
      throw new TypeError("bad input");
    });
    const result = await tool.execute({});
    expect(result).toEqual({ output: "TypeError: bad input", isError: true, error: expect.any(TypeError) });
    expect(result.error?.message).toBe("bad input");
  });

  it("turns an async rejection into an error result", async () => {
    const tool = toolReturning(async () => {
      throw new RangeError("out of range");
    });
    await expect(tool.execute({})).resolves.toEqual({
      output: "RangeError: out of range",
      isError: true,
      error: expect.any(RangeError),
    });
  });

  it("names a thrown non-error value", async () => {
    const tool = toolReturning(() => {
      throw "boom";
    });
    expect(await tool.execute({})).toEqual({ output: "Error: boom", isError: true });
  });

  it("validates arguments before calling the handler", async () => {
    const handler = vi.fn(() => "ran");
    const tool = toTool({
      name: "search",
      params: { query: { required: true }, max_results: { type: "integer" } },
      execute: handler,
    });
    // @ts-expect-error: the arguments are wrong on purpose (query is missing)
    expect(await tool.execute({ max_results: 1.5 })).toEqual({
      output:
        "invalid arguments for tool 'search': must have required property 'query'; /max_results must be integer",
      isError: true,
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it("hands the handler a copy without undeclared arguments when the schema forbids them", async () => {
    const seen: unknown[] = [];
    const tool = toTool({
      name: "strict",
      inputSchema: { type: "object", properties: { q: { type: "string" } }, additionalProperties: false },
      execute: (args: unknown) => {
        seen.push(args);
        return "";
      },
    });
    const args = { q: "x", "llm.tool.name": "spoofed" };
    await tool.execute(args);
    expect(seen).toEqual([{ q: "x" }]);
    expect(args).toEqual({ q: "x", "llm.tool.name": "spoofed" });
  });
});

describe("adapted execute: deadlines and cancellation", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves a timed-out result when context.timeoutMs passes first, and aborts the handler's signal", async () => {
    vi.useFakeTimers();
    let handlerSignal: AbortSignal | undefined;
    const tool = toolReturning((_args, context) => {
      handlerSignal = context.signal;
      return new Promise(() => undefined);
    });
    const pending = tool.execute({}, { timeoutMs: 1500 });
    await vi.advanceTimersByTimeAsync(1499);
    expect(handlerSignal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ output: "tool 'subject' timed out after 1500 ms", isError: true });
    expect(handlerSignal?.aborted).toBe(true);
    expect(handlerSignal?.reason).toBeInstanceOf(LlmError);
    expect(handlerSignal?.reason).toMatchObject({ code: "TOOL_TIMEOUT" });
  });

  it("returns the handler's result when it finishes before the deadline", async () => {
    const tool = toolReturning(async (_args, context) => {
      expect(context.signal).toBeInstanceOf(AbortSignal);
      return "in time";
    });
    expect(await tool.execute({}, { timeoutMs: 60_000 })).toEqual({ output: "in time", isError: false });
  });

  it("ignores a handler that rejects after its deadline passed", async () => {
    vi.useFakeTimers();
    const tool = toolReturning(
      () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error("too late")), 5000)),
    );
    const pending = tool.execute({}, { timeoutMs: 100 });
    await vi.advanceTimersByTimeAsync(6000);
    expect(await pending).toEqual({ output: "tool 'subject' timed out after 100 ms", isError: true });
  });

  it("resolves an aborted result when the caller's signal fires, and aborts the handler's signal", async () => {
    const controller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const tool = toolReturning((_args, context) => {
      handlerSignal = context.signal;
      started();
      return new Promise(() => undefined);
    });
    const pending = tool.execute({}, { signal: controller.signal });
    await running;
    controller.abort(new Error("caller gave up"));
    expect(await pending).toEqual({
      output: "tool 'subject' was aborted: Error: caller gave up",
      isError: true,
    });
    expect(handlerSignal?.aborted).toBe(true);
  });

  it("does not call the handler when the signal has already fired", async () => {
    const handler = vi.fn(() => "ran");
    const result = await toolReturning(handler).execute({}, { signal: AbortSignal.abort() });
    expect(result).toEqual({
      output: "tool 'subject' was aborted: AbortError: This operation was aborted",
      isError: true,
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it.each([[-5], [0], [Number.NaN], [Number.POSITIVE_INFINITY]])(
    "refuses timeoutMs %s",
    async (timeoutMs) => {
      const result = await toolReturning(() => "ran").execute({}, { timeoutMs });
      expect(result).toEqual({
        output: `tool 'subject': timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`,
        isError: true,
      });
    },
  );
});
