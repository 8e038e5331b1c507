import type { IncomingHttpHeaders } from "node:http";
import { startLoopbackServer } from "@routekit/test-support";

/** One scripted model turn: tool calls, or a final text. */
export type ScriptedTurn =
  | { toolCalls: Array<{ id: string; name: string; arguments: string }> }
  /** `cachedTokens`: the prompt tokens the usage reports as cached (`prompt_tokens_details`). */
  | { text: string; cachedTokens?: number }
  /** A streamed answer (`stream: true`): these pieces of text as server-sent events. */
  | { stream: string[] }
  | { status: number; error: string };

/** An OpenAI-compatible Chat Completions server on 127.0.0.1 answering turns in order. */
export interface OpenAiLoopback {
  /** `http://127.0.0.1:<port>/v1`, the base URL to give `openAiChat`. */
  readonly baseURL: string;
  readonly requests: Array<{ headers: IncomingHttpHeaders; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

let completions = 0;

function sse(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** A Chat Completions stream of `pieces`, a stop, the usage chunk and [DONE]. */
function streamed(pieces: string[]): string {
  completions += 1;
  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null,
    extra: Record<string, unknown> = {},
  ) =>
    sse({
      id: `chatcmpl-otel${completions}`,
      object: "chat.completion.chunk",
      created: 1_760_000_000,
      model: "gpt-4o-mini-2024-07-18",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...extra,
    });
  const usage = { prompt_tokens: 15, completion_tokens: pieces.length, total_tokens: 15 + pieces.length };
  return (
    chunk({ role: "assistant", content: "" }, null) +
    pieces.map((piece) => chunk({ content: piece }, null)).join("") +
    chunk({}, "stop") +
    sse({
      id: `chatcmpl-otel${completions}`,
      object: "chat.completion.chunk",
      created: 1_760_000_000,
      model: "gpt-4o-mini-2024-07-18",
      choices: [],
      usage,
    }) +
    sse("[DONE]")
  );
}

function completion(turn: Extract<ScriptedTurn, { toolCalls: unknown } | { text: string }>) {
  completions += 1;
  const calling = "toolCalls" in turn;
  const message = calling
    ? {
        role: "assistant",
        content: null,
        refusal: null,
        tool_calls: turn.toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      }
    : { role: "assistant", content: turn.text, refusal: null };
  const usage = calling
    ? { prompt_tokens: 40, completion_tokens: 12 }
    : {
        prompt_tokens: 70,
        completion_tokens: 9,
        ...(turn.cachedTokens !== undefined && {
          prompt_tokens_details: { cached_tokens: turn.cachedTokens },
        }),
      };
  return {
    id: `chatcmpl-otel${completions}`,
    object: "chat.completion",
    created: 1_760_000_000,
    model: "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, message, logprobs: null, finish_reason: calling ? "tool_calls" : "stop" }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    system_fingerprint: "fp_otel",
  };
}

export async function startOpenAiLoopback(turns: ScriptedTurn[]): Promise<OpenAiLoopback> {
  const requests: OpenAiLoopback["requests"] = [];
  const server = await startLoopbackServer((request, response) => {
    const index = requests.push({
      headers: request.headers,
      body: JSON.parse(request.body || "{}") as Record<string, unknown>,
    });
    const turn = turns[index - 1] ?? { status: 500, error: `no scripted turn ${index}` };
    if ("status" in turn) {
      response.writeHead(turn.status, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: turn.error, type: "invalid_request_error" } }));
      return;
    }
    if ("stream" in turn) {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      response.end(streamed(turn.stream));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(completion(turn)));
  });
  return { baseURL: `${server.url}/v1`, requests, close: () => server.close() };
}
