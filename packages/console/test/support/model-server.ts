import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

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
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        messages: Array<{ role: string }>;
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
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
