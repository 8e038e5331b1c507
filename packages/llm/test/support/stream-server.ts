import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * One step of a streamed reply: bytes to write (each write is followed by a short pause, so the
 * client reads it as its own chunk), `{ waitFor }` to hold until the test releases it,
 * "destroy" to cut the connection, "hang" to stop writing and keep it open.
 */
export type StreamStep = string | Uint8Array | { waitFor: Promise<unknown> } | "destroy" | "hang";

/** A reply: a status and JSON body (to test retries), or a stream of steps. */
export type StreamReply = { status: number; json: unknown } | { steps: StreamStep[] };

/** A request the server received, and whether its connection has closed. */
export interface StreamRequest {
  body: Record<string, unknown>;
  /** Resolves when the client's socket closes (the client gave up, or the server ended it). */
  closed: Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that replies with server-sent events, chunk by chunk. */
export interface StreamServer {
  url: string;
  requests: StreamRequest[];
  /** Connections currently open. */
  openSockets(): number;
  close(): Promise<void>;
}

export async function startStreamServer(replies: StreamReply[]): Promise<StreamServer> {
  const requests: StreamRequest[] = [];
  let open = 0;
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const closed = new Promise<void>((resolve) => incoming.socket.once("close", () => resolve()));
      const index = requests.push({ body: JSON.parse(Buffer.concat(chunks).toString("utf8")), closed }) - 1;
      const reply = replies[index];
      if (reply === undefined) {
        response
          .writeHead(500, { "content-type": "text/plain" })
          .end(`no reply scripted for request ${index + 1}`);
      } else if ("json" in reply) {
        response
          .writeHead(reply.status, { "content-type": "application/json" })
          .end(JSON.stringify(reply.json));
      } else {
        void play(response, reply.steps);
      }
    });
  });
  server.on("connection", (socket) => {
    open++;
    socket.once("close", () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    openSockets: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function play(response: ServerResponse, steps: StreamStep[]): Promise<void> {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const step of steps) {
    if (response.destroyed) return;
    if (step === "destroy") {
      response.socket?.destroy();
      return;
    }
    if (step === "hang") return;
    if (typeof step === "object" && "waitFor" in step) {
      await step.waitFor;
      continue;
    }
    response.write(step);
    await sleep(3);
  }
  response.end();
}

/** A server-sent event carrying `data` (an object is sent as JSON), with an optional event name. */
export function sse(data: unknown, event?: string): string {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${text}\n\n`;
}

/**
 * The bytes of `text` cut at each of `cuts` (byte offsets into the UTF-8 encoding), so a chunk
 * can end in the middle of a line, of a JSON value or of a multi-byte character.
 */
export function cutBytes(text: string, cuts: number[]): Uint8Array[] {
  const bytes = Buffer.from(text, "utf8");
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut <= start) continue;
    pieces.push(bytes.subarray(start, Math.min(cut, bytes.length)));
    start = cut;
  }
  return pieces;
}

/** The byte offset just after the first byte of `needle` in `text`'s UTF-8 encoding (a cut inside it). */
export function insideOf(text: string, needle: string, byte = 1): number {
  const at = Buffer.from(text, "utf8").indexOf(Buffer.from(needle, "utf8"));
  if (at < 0) throw new Error(`'${needle}' is not in the stream`);
  return at + byte;
}

/** A `chat.completion.chunk` of the OpenAI stream. */
export function openAiChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return sse({
    id: "chatcmpl-stream",
    object: "chat.completion.chunk",
    created: 1_760_000_000,
    model: "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
}

/** The usage chunk sent last with `stream_options.include_usage`, then `[DONE]`. */
export function openAiUsageAndDone(promptTokens: number, completionTokens: number): string {
  return (
    sse({
      id: "chatcmpl-stream",
      object: "chat.completion.chunk",
      created: 1_760_000_000,
      model: "gpt-4o-mini-2024-07-18",
      choices: [],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    }) + sse("[DONE]")
  );
}

/** An OpenAI stream answering with `pieces` of text, usage and [DONE]. */
export function openAiTextStream(pieces: string[]): string {
  return (
    openAiChunk({ role: "assistant", content: "" }) +
    pieces.map((piece) => openAiChunk({ content: piece })).join("") +
    openAiChunk({}, "stop") +
    openAiUsageAndDone(12, pieces.length)
  );
}

/** An Anthropic event: the `event:` line names its type, as the API sends it. */
export function anthropicEvent(data: Record<string, unknown>): string {
  return sse(data, String(data.type));
}

/** An Anthropic stream answering with `pieces` of text. */
export function anthropicTextStream(pieces: string[]): string {
  return (
    anthropicEvent({
      type: "message_start",
      message: {
        id: "msg_stream",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5-20250929",
        content: [],
        stop_reason: null,
        usage: { input_tokens: 25, output_tokens: 1 },
      },
    }) +
    anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
    pieces
      .map((text) =>
        anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }),
      )
      .join("") +
    anthropicEvent({ type: "content_block_stop", index: 0 }) +
    anthropicEvent({
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: pieces.length },
    }) +
    anthropicEvent({ type: "message_stop" })
  );
}
