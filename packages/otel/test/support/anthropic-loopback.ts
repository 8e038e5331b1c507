import { startLoopbackServer } from "@routekit/test-support";

/** One scripted Anthropic turn: tool uses, or a final text. */
export type AnthropicTurn =
  | { toolUses: Array<{ id: string; name: string; input: unknown }> }
  | { text: string };

/** An Anthropic Messages server on 127.0.0.1 (`POST /v1/messages`) answering turns in order. */
export interface AnthropicLoopback {
  /** `http://127.0.0.1:<port>`, the base URL to give `anthropicMessages`. */
  readonly baseURL: string;
  readonly requests: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

let messages = 0;

function reply(turn: AnthropicTurn) {
  messages += 1;
  const calling = "toolUses" in turn;
  return {
    id: `msg_otel${messages}`,
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-20250514",
    content: calling
      ? turn.toolUses.map((use) => ({ type: "tool_use", ...use }))
      : [{ type: "text", text: turn.text }],
    stop_reason: calling ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: calling ? { input_tokens: 30, output_tokens: 12 } : { input_tokens: 55, output_tokens: 8 },
  };
}

export async function startAnthropicLoopback(turns: AnthropicTurn[]): Promise<AnthropicLoopback> {
  const requests: Array<Record<string, unknown>> = [];
  const server = await startLoopbackServer((request, response) => {
    const index = requests.push(JSON.parse(request.body || "{}"));
    const turn = turns[index - 1];
    if (request.url !== "/v1/messages" || turn === undefined) {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ type: "error", error: { type: "api_error", message: "no turn" } }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(reply(turn)));
  });
  return { baseURL: server.url, requests, close: () => server.close() };
}
