import type { ServerResponse } from "node:http";
import { startLoopbackServer } from "@routekit/test-support";

/** One scripted answer of the model: tool calls (name and JSON arguments text), or a final text. */
export type ModelTurn = { toolCalls: Array<{ name: string; arguments: string }> } | { text: string };

/** An OpenAI-compatible server on 127.0.0.1 that answers `POST /chat/completions` with scripted turns. */
export interface ModelServer {
  /** `http://127.0.0.1:<port>` (the base URL for `openAiChat`). */
  readonly url: string;
  /** The requests received, parsed. */
  readonly requests: unknown[];
  close(): Promise<void>;
}

/**
 * Answers in the real Chat Completions wire format (`choices[0].message.tool_calls`,
 * `finish_reason`, `usage`). A conversation's turn is how many assistant messages its request
 * already holds, so several conversations can run one after another.
 */
export async function startModelServer(turns: readonly ModelTurn[]): Promise<ModelServer> {
  const requests: unknown[] = [];
  let callNumber = 0;
  const server = await startLoopbackServer((request, response) => {
    const body = JSON.parse(request.body) as {
      messages: Array<{ role: string }>;
      stream?: boolean;
    };
    requests.push(body);
    const position = body.messages.filter((message) => message.role === "assistant").length;
    const turn = turns[position];
    callNumber += 1;
    if (turn === undefined || request.url !== "/chat/completions") {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `no scripted turn ${position + 1}` } }));
      return;
    }
    const message =
      "text" in turn
        ? { role: "assistant", content: turn.text, refusal: null }
        : {
            role: "assistant",
            content: null,
            refusal: null,
            tool_calls: turn.toolCalls.map((call, index) => ({
              id: `call_${callNumber}_${index}`,
              type: "function",
              function: { name: call.name, arguments: call.arguments },
            })),
          };
    const usage = { prompt_tokens: 100 + position * 40, completion_tokens: 12 + position };
    if (body.stream === true) {
      streamTurn(response, turn, callNumber, usage);
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        id: `chatcmpl-console${callNumber}`,
        object: "chat.completion",
        created: 1_760_000_000,
        model: "gpt-4o-mini-2024-07-18",
        choices: [
          { index: 0, message, logprobs: null, finish_reason: "text" in turn ? "stop" : "tool_calls" },
        ],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        system_fingerprint: "fp_console",
      }),
    );
  });
  return { url: server.url, requests, close: () => server.close() };
}

/** The same turn as Chat Completions streams it: `chat.completion.chunk` events, usage, `[DONE]`. */
function streamTurn(
  response: ServerResponse,
  turn: ModelTurn,
  callNumber: number,
  usage: { prompt_tokens: number; completion_tokens: number },
): void {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) => ({
    id: `chatcmpl-console${callNumber}`,
    object: "chat.completion.chunk",
    created: 1_760_000_000,
    model: "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const events: unknown[] = [];
  if ("text" in turn) {
    events.push(chunk({ role: "assistant", content: "" }, null));
    for (const word of turn.text.split(/(?<= )/)) events.push(chunk({ content: word }, null));
    events.push(chunk({}, "stop"));
  } else {
    turn.toolCalls.forEach((call, index) => {
      const id = `call_${callNumber}_${index}`;
      const opening = { index, id, type: "function", function: { name: call.name, arguments: "" } };
      events.push(chunk({ role: "assistant", content: null, tool_calls: [opening] }, null));
      events.push(chunk({ tool_calls: [{ index, function: { arguments: call.arguments } }] }, null));
    });
    events.push(chunk({}, "tool_calls"));
  }
  const total = usage.prompt_tokens + usage.completion_tokens;
  events.push({ ...chunk({}, null), choices: [], usage: { ...usage, total_tokens: total } });
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const event of events) response.write(`data: ${JSON.stringify(event)}\n\n`);
  response.end("data: [DONE]\n\n");
}
