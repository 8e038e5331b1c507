import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createContext, type RouteContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { anthropicMessages, type LanguageModel, llm, llmPlugin, openAiChat } from "@routekit/llm";
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { afterEach, describe, expect, it } from "vitest";

// Reasoning and tool arguments as a provider streams them, through a routekit route answering the
// UI message stream, read by the AI SDK's own client code (its transport and readUIMessageStream).

let provider: { server: Server; url: string; bodies: Array<Record<string, unknown>> } | undefined;
let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  if (provider !== undefined) {
    provider.server.closeAllConnections();
    await new Promise((resolve) => provider?.server.close(resolve));
  }
  context = undefined;
  provider = undefined;
});

/** A provider on 127.0.0.1 answering request n with the server-sent events `replies[n]`. */
async function startProvider(replies: string[]) {
  const bodies: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>);
      const reply = replies[bodies.length - 1];
      if (reply === undefined) {
        response.writeHead(500).end(`no scripted reply for request ${bodies.length}`);
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = { server, url, bodies };
  return provider;
}

/** A route answering useChat's request with the UI message stream, and the local_time tool. */
async function startRoute(model: LanguageModel): Promise<string> {
  context = createContext({ logLevel: "warn" });
  context.use(httpPlugin({ port: 0 }));
  context.use(llmPlugin({ models: { chat: model } }));
  await context.addRoutes((r) => {
    r.from("direct:tool.local_time")
      .asLlmTool("local_time", {
        description: "The time in a zone.",
        input: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
      })
      .transform(({ body }) => `12:00 ${body.zone}`);
    r.from("http:/api/chat?httpMethodRestrict=POST").to(
      llm("chat").tools("local_time").stream({ format: "ui-message" }).uri(),
    );
  });
  await context.start();
  return `${httpServerOf(context).url}/api/chat`;
}

/** Every chunk the client read, and the assistant message as readUIMessageStream built it. */
async function chat(api: string, text: string) {
  const transport = new DefaultChatTransport<UIMessage>({ api });
  const stream = await transport.sendMessages({
    chatId: "chat-1",
    messageId: undefined,
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }],
    trigger: "submit-message",
    abortSignal: undefined,
  });
  const chunks: UIMessageChunk[] = [];
  const recorded = stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  const states: string[] = [];
  let message: UIMessage | undefined;
  for await (const built of readUIMessageStream({ stream: recorded })) {
    message = built;
    const tool = built.parts.find((part) => part.type === "tool-local_time") as { state: string } | undefined;
    if (tool !== undefined && states.at(-1) !== tool.state) states.push(tool.state);
  }
  return { chunks, message, states };
}

const sse = (data: unknown, event?: string) =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
const anthropic = (data: Record<string, unknown>) => sse(data, String(data.type));

function anthropicTurn(blocks: string[], stopReason: string): string {
  return (
    anthropic({
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [],
        usage: { input_tokens: 30, output_tokens: 1 },
      },
    }) +
    blocks.join("") +
    anthropic({ type: "message_delta", delta: { stop_reason: stopReason }, usage: { output_tokens: 20 } }) +
    anthropic({ type: "message_stop" })
  );
}

function anthropicBlock(index: number, start: Record<string, unknown>, deltas: Record<string, unknown>[]) {
  return (
    anthropic({ type: "content_block_start", index, content_block: start }) +
    deltas.map((delta) => anthropic({ type: "content_block_delta", index, delta })).join("") +
    anthropic({ type: "content_block_stop", index })
  );
}

const openAi = (delta: Record<string, unknown>, finish: string | null = null) =>
  sse({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    model: "deepseek-reasoner",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const openAiEnd = (finish: string) =>
  openAi({}, finish) +
  sse({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    model: "deepseek-reasoner",
    choices: [],
    usage: { prompt_tokens: 30, completion_tokens: 20 },
  }) +
  sse("[DONE]");

function textOf(message: UIMessage | undefined, type: "text" | "reasoning"): string {
  return (message?.parts ?? [])
    .filter((part) => part.type === type)
    .map((part) => (part as { text: string }).text)
    .join("");
}

describe("reasoning and streamed tool arguments in the UI message stream", () => {
  it("Anthropic thinking blocks become reasoning parts; input_json_delta becomes tool-input-delta", async () => {
    const { url, bodies } = await startProvider([
      anthropicTurn(
        [
          anthropicBlock(0, { type: "thinking", thinking: "" }, [
            { type: "thinking_delta", thinking: "The user wants the time; " },
            { type: "thinking_delta", thinking: "I will ask the tool." },
            { type: "signature_delta", signature: "sig-abc" },
          ]),
          anthropicBlock(1, { type: "tool_use", id: "toolu_1", name: "local_time", input: {} }, [
            { type: "input_json_delta", partial_json: '{"zo' },
            { type: "input_json_delta", partial_json: 'ne":"UTC"}' },
          ]),
        ],
        "tool_use",
      ),
      anthropicTurn(
        [
          anthropicBlock(0, { type: "thinking", thinking: "" }, [
            { type: "thinking_delta", thinking: "The tool said noon." },
            { type: "signature_delta", signature: "sig-def" },
          ]),
          anthropicBlock(1, { type: "text", text: "" }, [{ type: "text_delta", text: "It is noon in UTC." }]),
        ],
        "end_turn",
      ),
    ]);
    const api = await startRoute(
      anthropicMessages({ model: "claude-sonnet-4-5", baseURL: url, apiKey: "sk-ant-test", stream: true }),
    );

    const { chunks, message, states } = await chat(api, "What time is it in UTC?");

    expect(chunks.map((chunk) => chunk.type)).toEqual([
      "start",
      "start-step",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-delta",
      "reasoning-end",
      "tool-input-start",
      "tool-input-delta",
      "tool-input-delta",
      "tool-input-available",
      "tool-output-available",
      "finish-step",
      "start-step",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "text-end",
      "finish-step",
      "finish",
    ]);
    expect(textOf(message, "reasoning")).toBe(
      "The user wants the time; I will ask the tool.The tool said noon.",
    );
    expect(textOf(message, "text")).toBe("It is noon in UTC.");
    // readUIMessageStream saw the arguments while they streamed, then the input, then the output.
    expect(states).toEqual(["input-streaming", "input-available", "output-available"]);
    expect(message?.parts.find((part) => part.type === "tool-local_time")).toMatchObject({
      input: { zone: "UTC" },
      output: "12:00 UTC",
    });
    // The thinking block goes back to the provider with its signature, as the API requires.
    const replayed = (bodies[1]?.messages as Array<{ role: string; content: unknown }> | undefined)?.[1];
    expect(replayed?.content).toEqual([
      { type: "thinking", thinking: "The user wants the time; I will ask the tool.", signature: "sig-abc" },
      { type: "tool_use", id: "toolu_1", name: "local_time", input: { zone: "UTC" } },
    ]);
  });

  it("OpenAI-compatible reasoning_content becomes reasoning parts; argument fragments become tool-input-delta", async () => {
    const { url } = await startProvider([
      openAi({ role: "assistant", content: null, reasoning_content: "Time in UTC: " }) +
        openAi({ reasoning_content: "call the tool." }) +
        openAi({
          tool_calls: [
            { index: 0, id: "call_1", type: "function", function: { name: "local_time", arguments: "" } },
          ],
        }) +
        openAi({ tool_calls: [{ index: 0, function: { arguments: '{"zone":' } }] }) +
        openAi({ tool_calls: [{ index: 0, function: { arguments: '"UTC"}' } }] }) +
        openAiEnd("tool_calls"),
      openAi({ role: "assistant", content: "", reasoning_content: "Noon." }) +
        openAi({ content: "It is noon " }) +
        openAi({ content: "in UTC." }) +
        openAiEnd("stop"),
    ]);
    const api = await startRoute(
      openAiChat({ model: "deepseek-reasoner", baseURL: url, apiKey: "sk-test", stream: true }),
    );

    const { chunks, message, states } = await chat(api, "What time is it in UTC?");

    const deltas = chunks.filter((chunk) => chunk.type === "tool-input-delta");
    expect(deltas.map((chunk) => chunk.inputTextDelta)).toEqual(['{"zone":', '"UTC"}']);
    expect(textOf(message, "reasoning")).toBe("Time in UTC: call the tool.Noon.");
    expect(textOf(message, "text")).toBe("It is noon in UTC.");
    expect(states).toEqual(["input-streaming", "input-available", "output-available"]);
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
  });
});
