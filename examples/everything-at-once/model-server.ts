// A model on 127.0.0.1 speaking OpenAI Chat Completions (`POST /chat/completions`, tool calls
// included), scripted by how many tool answers the conversation already holds, so a request sent
// again gets the same answer.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A message of a Chat Completions request, as the test reads it. */
export interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_call_id?: string;
}

/** The scripted model's server. */
export interface ModelServer {
  /** The base URL to give `openAiChat({ baseURL })`. */
  readonly url: string;
  /** The `messages` of every request received, in order. */
  readonly conversations: ChatMessage[][];
  close(): Promise<void>;
}

/** The final answer, once the tools have answered. */
export const FINAL_ANSWER = "Order o-1 is recorded: wheel and frame.";

/** Turn by turn: two parts of order o-1 at once, then the first again (a model retrying), then the answer. */
function reply(toolAnswers: number): Record<string, unknown> {
  if (toolAnswers === 0)
    return toolCalls([
      ["call_1", "o-1", "wheel"],
      ["call_2", "o-1", "frame"],
    ]);
  if (toolAnswers === 2) return toolCalls([["call_3", "o-1", "wheel"]]);
  return completion({ role: "assistant", content: FINAL_ANSWER, refusal: null }, "stop");
}

function toolCalls(calls: Array<[id: string, order: string, part: string]>): Record<string, unknown> {
  const message = {
    role: "assistant",
    content: null,
    refusal: null,
    tool_calls: calls.map(([id, order, part]) => ({
      id,
      type: "function",
      function: { name: "record_part", arguments: JSON.stringify({ order, part }) },
    })),
  };
  return completion(message, "tool_calls");
}

let completions = 0;

function completion(message: Record<string, unknown>, finishReason: string): Record<string, unknown> {
  completions += 1;
  return {
    id: `chatcmpl-everything-${completions}`,
    object: "chat.completion",
    created: 1_760_000_000,
    model: "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 },
  };
}

/** Starts the model on 127.0.0.1 and a free port. */
export async function startModelServer(): Promise<ModelServer> {
  const conversations: ChatMessage[][] = [];
  const server: Server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      text += chunk;
    });
    request.on("end", () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.method !== "POST" || request.url !== "/chat/completions") {
        answer(404, { error: { message: `no route ${request.method} ${request.url}` } });
        return;
      }
      const messages = (JSON.parse(text) as { messages: ChatMessage[] }).messages;
      conversations.push(messages);
      answer(200, reply(messages.filter((message) => message.role === "tool").length));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    conversations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
