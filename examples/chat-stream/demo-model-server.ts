import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A local OpenAI-compatible server that streams a fixed answer, for running the example without a key. */
export interface DemoModelServer {
  /** The base URL to give `openAiChat({ baseURL })`. */
  readonly url: string;
  close(): Promise<void>;
}

const ANSWER = "It is {time} on the server. Streaming means you saw this sentence arrive word by word.";

/**
 * Speaks Chat Completions with `stream: true`, as OpenAI does: the first turn asks for the
 * `local_time` tool (its arguments in two deltas), the second streams the answer a word every
 * `paceMs`, with the time the tool returned, then the usage chunk and `[DONE]`.
 */
export async function startDemoModelServer(paceMs = 40): Promise<DemoModelServer> {
  const server: Server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      text += chunk;
    });
    request.on("end", () => {
      const body = JSON.parse(text) as { messages: Array<{ role: string; content?: string }> };
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const last = body.messages.at(-1);
      if (last?.role !== "tool") {
        const call = {
          index: 0,
          id: "call_time",
          type: "function",
          function: { name: "local_time", arguments: "" },
        };
        send(response, chunk({ role: "assistant", content: null, tool_calls: [call] }));
        send(response, chunk({ tool_calls: [{ index: 0, function: { arguments: '{"zone":' } }] }));
        send(response, chunk({ tool_calls: [{ index: 0, function: { arguments: '"UTC"}' } }] }));
        send(response, chunk({}, "tool_calls"));
        finish(response);
        return;
      }
      const words = ANSWER.replace("{time}", last.content ?? "unknown").split(/(?<= )/);
      let index = 0;
      const timer = setInterval(() => {
        const word = words[index++];
        if (word === undefined) {
          clearInterval(timer);
          send(response, chunk({}, "stop"));
          finish(response);
          return;
        }
        send(response, chunk({ content: word }));
      }, paceMs);
      response.on("close", () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return {
    object: "chat.completion.chunk",
    model: "demo-model",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function send(response: import("node:http").ServerResponse, data: unknown): void {
  response.write(`data: ${JSON.stringify(data)}\n\n`);
}

function finish(response: import("node:http").ServerResponse): void {
  send(response, {
    object: "chat.completion.chunk",
    model: "demo-model",
    choices: [],
    usage: { prompt_tokens: 20, completion_tokens: 16 },
  });
  response.end("data: [DONE]\n\n");
}
