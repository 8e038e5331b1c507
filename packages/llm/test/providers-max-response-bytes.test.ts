// A model reply of any size: plain (with a length or chunked) and streamed replies are counted as
// bytes arrive, and one past maxResponseBytes fails clearly and closes its connection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { LlmError } from "../src/errors.js";
import type { LanguageModel } from "../src/model-types.js";
import { anthropicMessages, openAiChat } from "../src/providers/index.js";
import { anthropicEvent, openAiChunk } from "./support/stream-server.js";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handler: Handler): Promise<string> {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => handler(request, response));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Writes `chunk` forever, as fast as the client reads, until the connection closes. */
function writeForever(response: ServerResponse, chunk: string, onClosed: () => void): void {
  response.on("close", onClosed);
  const pump = (): void => {
    while (!response.destroyed && response.write(chunk)) {
      // keep writing while the socket takes it
    }
    if (!response.destroyed) response.once("drain", pump);
  };
  pump();
}

const PROVIDERS = {
  openai: {
    make: (base: string, extra: Record<string, unknown>) =>
      openAiChat({ model: "m", baseURL: `${base}/v1`, apiKey: "sk-x", maxRetries: 0, ...extra }),
    factory: "openAiChat",
    reply: (text: string) =>
      JSON.stringify({
        id: "c",
        object: "chat.completion",
        model: "m",
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    streamStart: openAiChunk({ role: "assistant", content: "" }),
    streamDelta: openAiChunk({ content: "x".repeat(200) }),
  },
  anthropic: {
    make: (base: string, extra: Record<string, unknown>) =>
      anthropicMessages({ model: "m", baseURL: base, apiKey: "sk-x", maxRetries: 0, ...extra }),
    factory: "anthropicMessages",
    reply: (text: string) =>
      JSON.stringify({
        id: "msg",
        type: "message",
        role: "assistant",
        model: "m",
        content: [{ type: "text", text }],
        stop_reason: "end_turn",
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    streamStart:
      anthropicEvent({
        type: "message_start",
        message: {
          id: "s",
          type: "message",
          role: "assistant",
          model: "m",
          content: [],
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      }) +
      anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    streamDelta: anthropicEvent({
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: "x".repeat(200) },
    }),
  },
} as const;

const ask = (model: LanguageModel) =>
  model.generate({ messages: [{ role: "user", content: "hi" }], tools: [] });

async function failureOf(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

function expectTooLarge(error: LlmError, provider: string, factory: string, limit: number): void {
  expect(error.code).toBe("MODEL_RESPONSE_INVALID");
  expect(error.message).toContain(`${provider} reply from POST`);
  expect(error.message).toContain(`is larger than maxResponseBytes (${limit} bytes)`);
  expect(error.message).toContain(`maxResponseBytes of ${factory}()`);
}

for (const [provider, spec] of Object.entries(PROVIDERS)) {
  describe(`${spec.factory} maxResponseBytes`, () => {
    it("refuses a plain reply with a length past the default of 8 MiB", async () => {
      const body = spec.reply("y".repeat(9 * 1024 * 1024));
      const base = await serve((_request, response) => {
        response.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        });
        response.end(body);
      });
      expectTooLarge(await failureOf(ask(spec.make(base, {}))), provider, spec.factory, 8 * 1024 * 1024);
    });

    it("reads a reply within the limit as before", async () => {
      const base = await serve((_request, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(spec.reply("fits"));
      });
      const answer = await ask(spec.make(base, { maxResponseBytes: 4096 }));
      expect(answer.text).toBe("fits");
    });

    it("stops reading an endless chunked plain reply and closes its connection", async () => {
      let closed: () => void = () => undefined;
      const connectionClosed = new Promise<void>((resolve) => {
        closed = resolve;
      });
      const base = await serve((_request, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        writeForever(response, `{"padding":"${"z".repeat(16 * 1024)}`, closed);
      });
      const error = await failureOf(ask(spec.make(base, { maxResponseBytes: 256 * 1024 })));
      expectTooLarge(error, provider, spec.factory, 256 * 1024);
      await connectionClosed;
    });

    it("counts a streamed reply over the whole stream, however small each event is", async () => {
      let closed: () => void = () => undefined;
      const connectionClosed = new Promise<void>((resolve) => {
        closed = resolve;
      });
      const base = await serve((_request, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(spec.streamStart);
        writeForever(response, spec.streamDelta, closed);
      });
      const error = await failureOf(ask(spec.make(base, { stream: true, maxResponseBytes: 128 * 1024 })));
      expectTooLarge(error, provider, spec.factory, 128 * 1024);
      await connectionClosed;
    });

    it("quotes only the start of a huge error reply", async () => {
      let closed: () => void = () => undefined;
      const connectionClosed = new Promise<void>((resolve) => {
        closed = resolve;
      });
      const base = await serve((_request, response) => {
        response.writeHead(400, { "content-type": "application/json" });
        writeForever(response, `{"error":"${"e".repeat(16 * 1024)}`, closed);
      });
      const error = await failureOf(ask(spec.make(base, {})));
      expect(error.message).toContain("HTTP 400");
      await connectionClosed;
    });

    it("checks the option", () => {
      expect(() => spec.make("http://127.0.0.1:9", { maxResponseBytes: 0 })).toThrow(
        `${spec.factory}: option 'maxResponseBytes' must be a whole number of bytes >= 1, got 0`,
      );
    });
  });
}
