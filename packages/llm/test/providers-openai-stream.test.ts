import { afterEach, describe, expect, it } from "vitest";
import { LlmError, ModelRequestError } from "../src/errors.js";
import { openAiChat } from "../src/providers/index.js";
import { type LlmStreamPart, runToolLoop, streamToolLoop } from "../src/tool-loop/index.js";
import {
  cutBytes,
  insideOf,
  openAiChunk,
  openAiTextStream,
  openAiUsageAndDone,
  type StreamReply,
  type StreamServer,
  sse,
  startStreamServer,
} from "./support/stream-server.js";
import { toolMap, weatherTool } from "./support/test-tools.js";

let server: StreamServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function streamingModel(
  replies: StreamReply[],
  options: { maxRetries?: number; timeoutMs?: number } = {},
) {
  server = await startStreamServer(replies);
  const model = openAiChat({
    model: "gpt-4o-mini",
    baseURL: `${server.url}/v1`,
    apiKey: "sk-test-stream",
    stream: true,
    maxRetries: options.maxRetries ?? 0,
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  });
  return { model, requests: server.requests };
}

function collect(): { parts: LlmStreamPart[]; onPart: (part: LlmStreamPart) => void } {
  const parts: LlmStreamPart[] = [];
  return { parts, onPart: (part) => parts.push(part) };
}

const textOf = (parts: LlmStreamPart[]) =>
  parts.map((part) => (part.type === "text-delta" ? part.text : "")).join("");

describe("openAiChat({ stream: true })", () => {
  it("hands on text deltas in order, whatever the chunk boundaries, and reads usage from the last chunk", async () => {
    const pieces = ["Grüße", " aus ", "Zürich ", "🙂", " — fin"];
    const wire = `: keep-alive\n\n${openAiTextStream(pieces)}`;
    // Cuts inside a `data:` line, inside the JSON, inside "ü" (2 bytes) and inside "🙂" (4 bytes).
    const cuts = [
      insideOf(wire, "data:", 3),
      insideOf(wire, '"choices"', 4),
      insideOf(wire, "ü", 1),
      insideOf(wire, "🙂", 1),
      insideOf(wire, "🙂", 3),
      insideOf(wire, "[DONE]", 2),
    ];
    const { model, requests } = await streamingModel([{ steps: cutBytes(wire, cuts) }]);
    const { parts, onPart } = collect();

    const result = await runToolLoop({ model, tools: new Map(), input: "Say hello", onPart });

    expect(parts.filter((part) => part.type === "text-delta").map((part) => part.text)).toEqual(pieces);
    expect(result.text).toBe(pieces.join(""));
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 5 });
    expect(result.stopReason).toBe("stop");
    expect(parts.at(-1)).toEqual({
      type: "finish",
      text: pieces.join(""),
      finishReason: "stop",
      usage: { inputTokens: 12, outputTokens: 5 },
      iterations: 1,
    });
    expect(requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("assembles a tool call from many argument deltas and parallel calls interleaved by index, then streams the next turn", async () => {
    const argumentsOslo = ["{", '"ci', "ty", '":', ' "Os', "lo", '"', "}"];
    const argumentsRome = ['{"city"', ': "', "Ro", 'me"}'];
    const interleaved: string[] = [
      openAiChunk({ role: "assistant", content: "Checking both. " }),
      openAiChunk({
        tool_calls: [
          { index: 0, id: "call_oslo", type: "function", function: { name: "get_weather", arguments: "" } },
        ],
      }),
      openAiChunk({
        tool_calls: [
          { index: 1, id: "call_rome", type: "function", function: { name: "get_weather", arguments: "" } },
        ],
      }),
    ];
    for (let i = 0; i < Math.max(argumentsOslo.length, argumentsRome.length); i++) {
      const oslo = argumentsOslo[i];
      const rome = argumentsRome[i];
      if (oslo !== undefined)
        interleaved.push(openAiChunk({ tool_calls: [{ index: 0, function: { arguments: oslo } }] }));
      if (rome !== undefined)
        interleaved.push(openAiChunk({ tool_calls: [{ index: 1, function: { arguments: rome } }] }));
    }
    interleaved.push(openAiChunk({}, "tool_calls"), openAiUsageAndDone(30, 20));
    const { model, requests } = await streamingModel([
      { steps: interleaved },
      { steps: [openAiTextStream(["Both ", "are ", "sunny."])] },
    ]);
    const { parts, onPart } = collect();
    const started: string[] = [];
    const weather = weatherTool();
    const tools = toolMap({
      ...weather,
      execute: (args, context) => {
        started.push(String((args as { city: string }).city));
        return weather.execute(args, context);
      },
    });

    const result = await runToolLoop({
      model,
      tools,
      input: "Weather in Oslo and Rome?",
      onPart,
      includeContent: true,
    });

    expect(started.sort()).toEqual(["Oslo", "Rome"]);
    expect(result).toMatchObject({ text: "Both are sunny.", iterations: 2, toolCalls: 2 });
    expect(result.usage).toEqual({ inputTokens: 42, outputTokens: 23 });
    // With includeContent each call's arguments stream as the model writes them, call by call.
    const fragments = (callId: string) =>
      parts.flatMap((part) =>
        part.type === "tool-input-delta" && part.toolCallId === callId ? [part.delta] : [],
      );
    expect(fragments("call_oslo").join("")).toBe('{"city": "Oslo"}');
    expect(fragments("call_rome").join("")).toBe('{"city": "Rome"}');
    expect(parts.filter((part) => part.type === "tool-input-start")).toEqual([
      { type: "tool-input-start", toolCallId: "call_oslo", toolName: "get_weather", iteration: 1 },
      { type: "tool-input-start", toolCallId: "call_rome", toolName: "get_weather", iteration: 1 },
    ]);
    const settled = parts.filter((part) => !part.type.startsWith("tool-input-"));
    expect(settled.map((part) => part.type)).toEqual([
      "text-delta",
      "tool-call",
      "tool-call",
      "tool-result",
      "tool-result",
      "text-delta",
      "text-delta",
      "text-delta",
      "finish",
    ]);
    expect(settled[1]).toEqual({
      type: "tool-call",
      toolCallId: "call_oslo",
      toolName: "get_weather",
      iteration: 1,
      input: { city: "Oslo" },
    });
    expect(settled[2]).toMatchObject({ toolCallId: "call_rome", input: { city: "Rome" } });
    const replayed = requests[1]?.body.messages as Array<Record<string, unknown>>;
    expect(replayed[1]).toEqual({
      role: "assistant",
      content: "Checking both. ",
      tool_calls: [
        {
          id: "call_oslo",
          type: "function",
          function: { name: "get_weather", arguments: '{"city": "Oslo"}' },
        },
        {
          id: "call_rome",
          type: "function",
          function: { name: "get_weather", arguments: '{"city": "Rome"}' },
        },
      ],
    });
    expect(replayed.slice(2)).toEqual([
      { role: "tool", tool_call_id: "call_oslo", content: "Oslo: 21C, sunny" },
      { role: "tool", tool_call_id: "call_rome", content: "Rome: 21C, sunny" },
    ]);
  });

  it("fails with an error saying the stream broke when an error event arrives mid-way, and does not retry", async () => {
    const { model, requests } = await streamingModel(
      [
        {
          steps: [
            openAiChunk({ role: "assistant", content: "Half an ans" }),
            sse({
              error: {
                message: "The server had an error while processing your request.",
                type: "server_error",
              },
            }),
          ],
        },
      ],
      { maxRetries: 3 },
    );
    const { parts, onPart } = collect();

    const failure = await runToolLoop({ model, tools: new Map(), input: "Hi", onPart }).catch(
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(ModelRequestError);
    expect((failure as Error).message).toMatch(
      /stream from POST .*\/v1\/chat\/completions broke mid-way: the server sent an error event: server_error: The server had an error/,
    );
    expect(textOf(parts)).toBe("Half an ans");
    expect(parts.some((part) => part.type === "finish")).toBe(false);
    expect(requests).toHaveLength(1);
  });

  it("fails with an error saying the stream broke when the connection is cut mid-way, and does not retry", async () => {
    const { model, requests } = await streamingModel(
      [
        {
          steps: [
            openAiChunk({ role: "assistant", content: "Once upon" }),
            'data: {"id":"chatcmpl-stream","choi',
            "destroy",
          ],
        },
      ],
      { maxRetries: 3 },
    );

    const failure = await runToolLoop({ model, tools: new Map(), input: "A story" }).catch(
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(ModelRequestError);
    expect((failure as Error).message).toMatch(/broke mid-way/);
    expect(requests).toHaveLength(1);
  });

  it("fails when the connection closes cleanly before [DONE] or a finish reason", async () => {
    const { model } = await streamingModel([
      { steps: [openAiChunk({ role: "assistant", content: "Once" })] },
    ]);

    const failure = await runToolLoop({ model, tools: new Map(), input: "A story" }).catch(
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(ModelRequestError);
    expect((failure as Error).message).toMatch(
      /broke mid-way: the connection closed before \[DONE\] or a finish_reason/,
    );
  });

  it("retries before the first byte (a 503), then streams", async () => {
    const { model, requests } = await streamingModel(
      [{ status: 503, json: { error: { message: "overloaded" } } }, { steps: [openAiTextStream(["ok"])] }],
      { maxRetries: 1 },
    );

    const result = await runToolLoop({ model, tools: new Map(), input: "Hi" });

    expect(result.text).toBe("ok");
    expect(requests).toHaveLength(2);
  });

  it("names the stream, what was expected and what came when an event is not JSON or has the wrong shape", async () => {
    const { model } = await streamingModel([
      { steps: [sse("{not json")] },
      { steps: [openAiChunk({ tool_calls: [{ index: 99999, function: { arguments: "{}" } }] })] },
    ]);

    const notJson = await runToolLoop({ model, tools: new Map(), input: "Hi" }).catch(
      (error: unknown) => error,
    );
    const badIndex = await runToolLoop({ model, tools: new Map(), input: "Hi" }).catch(
      (error: unknown) => error,
    );

    expect(notJson).toBeInstanceOf(LlmError);
    expect(notJson).toMatchObject({ code: "MODEL_RESPONSE_INVALID" });
    expect((notJson as Error).message).toMatch(
      /openai stream from POST .*: expected each event's data to be JSON, got \{not json/,
    );
    expect((badIndex as Error).message).toMatch(
      /expected choices\[0\]\.delta\.tool_calls\[0\]\.index to be an integer 0-255, got 99999/,
    );
  });

  it("fails when no data arrives within timeoutMs after the stream started", async () => {
    const { model, requests } = await streamingModel(
      [{ steps: [openAiChunk({ role: "assistant", content: "Wait" }), "hang"] }],
      { timeoutMs: 300, maxRetries: 2 },
    );

    const failure = await runToolLoop({ model, tools: new Map(), input: "Hi" }).catch(
      (error: unknown) => error,
    );

    expect((failure as Error).message).toMatch(/broke mid-way .*no data for 300 ms \(timeoutMs\)/);
    expect(requests).toHaveLength(1);
  });

  it("cancels the model request when a reader stops early: the server sees its connection closed", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { model, requests } = await streamingModel([
      {
        steps: [
          openAiChunk({ role: "assistant", content: "First" }),
          { waitFor: held },
          openAiTextStream(["never"]),
        ],
      },
    ]);
    const stream = streamToolLoop({ model, tools: new Map(), input: "Hi" });

    for await (const part of stream) {
      expect(part).toEqual({ type: "text-delta", text: "First", iteration: 1 });
      break;
    }

    await requests[0]?.closed;
    await expect(stream.result).rejects.toMatchObject({ name: "AbortError" });
    expect(stream.done).toBe(true);
    release();
  });

  it("refuses a stream option that is not a boolean", () => {
    expect(() =>
      openAiChat({ model: "m", baseURL: "http://127.0.0.1:1", stream: "yes" as unknown as boolean }),
    ).toThrow("openAiChat: option 'stream' must be a boolean, got \"yes\"");
  });
});
