// The loopback model both sides of the durable benchmark talk to: Chat Completions on 127.0.0.1,
// three turns per run — a lookup and a price, then a total and a lookup, then the answer.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

interface ChatRequest {
  messages: Array<{ role: string }>;
}

const CALLS: Array<Array<[string, string]>> = [
  [
    ["lookup", '{"order":"A-1"}'],
    ["price", '{"item":"widget"}'],
  ],
  [
    ["total", '{"count":3,"unit":1250}'],
    ["lookup", '{"order":"A-2"}'],
  ],
];

/** Starts the model; every request gets the reply for its turn (counted from its assistant messages). */
export async function startAgentModel(): Promise<{ url: string; close(): Promise<void> }> {
  let counter = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const chat = JSON.parse(Buffer.concat(chunks).toString()) as ChatRequest;
      const turn = chat.messages.filter((message) => message.role === "assistant").length;
      const calls = CALLS[turn];
      counter += 1;
      const message =
        calls === undefined
          ? { role: "assistant", content: "The order totals 37.50 USD." }
          : {
              role: "assistant",
              content: null,
              tool_calls: calls.map(([name, args], index) => ({
                id: `call_${counter}_${index}`,
                type: "function",
                function: { name, arguments: args },
              })),
            };
      const body = JSON.stringify({
        id: `chatcmpl-${counter}`,
        object: "chat.completion",
        created: 1_760_000_000,
        model: "agent",
        choices: [
          { index: 0, message, logprobs: null, finish_reason: calls === undefined ? "stop" : "tool_calls" },
        ],
        usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 },
      });
      response.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
      });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
