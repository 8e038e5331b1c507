import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

interface ChatMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
}
interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: Array<{ function: { name: string } }>;
}

/** Every Chat Completions request the server received. */
const requests: ChatRequest[] = [];
let server: Server;

/** What a model would answer at each turn: look the order up, compute the total, then reply. */
function answer(request: ChatRequest): object {
  const results = request.messages.filter((message) => message.role === "tool");
  const message =
    results.length === 0
      ? toolCall("call_1", "order_lookup", { id: "A-17" })
      : results.length === 1
        ? toolCall("call_2", "math_eval", { expression: "3 * 12.5" })
        : { role: "assistant", content: `Order A-17 costs ${results[1]?.content} USD.` };
  const finish = "tool_calls" in message ? "tool_calls" : "stop";
  return {
    id: `chatcmpl-readme${requests.length}`,
    object: "chat.completion",
    created: 1_760_000_000,
    model: request.model,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function toolCall(id: string, name: string, args: object) {
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
  };
}

beforeAll(async () => {
  server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequest;
      requests.push(request);
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(answer(request)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  vi.stubEnv("OPENAI_BASE_URL", `http://127.0.0.1:${port}/v1`);
  vi.stubEnv("OPENAI_API_KEY", "readme-test-key");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("README: a route tool and an llm step", () => {
  it("the model calls the route tool and math_eval, and the step replies with its answer", async () => {
    const { answer: reply } = await import("../docs/readme-tools.js");
    expect(reply).toBe("Order A-17 costs 37.5 USD.");
    expect(requests).toHaveLength(3);
    expect(requests[0]?.tools?.map((tool) => tool.function.name).sort()).toEqual([
      "math_eval",
      "order_lookup",
    ]);
    const toolResults = requests[2]?.messages.filter((message) => message.role === "tool");
    expect(toolResults?.map((message) => message.content)).toEqual([
      JSON.stringify({ id: "A-17", items: 3, unitPriceUsd: 12.5 }),
      "37.5",
    ]);
  });
});
