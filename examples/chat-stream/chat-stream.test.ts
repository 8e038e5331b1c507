import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { httpServerOf } from "@routekit/http";
import { openAiChat } from "@routekit/llm";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatServer, startChatServer } from "./chat-server.js";
import { type DemoModelServer, startDemoModelServer } from "./demo-model-server.js";

let chat: ChatServer | undefined;
let demo: DemoModelServer | undefined;
afterEach(async () => {
  await chat?.stop();
  await demo?.close();
  chat = undefined;
  demo = undefined;
});

async function startWithDemoModel(paceMs = 5): Promise<ChatServer> {
  demo = await startDemoModelServer(paceMs);
  chat = await startChatServer({
    model: openAiChat({ model: "demo-model", baseURL: demo.url, stream: true }),
  });
  return chat;
}

/** Reads server-sent events from `body`, calling `onEvent` with each event's parsed data. */
async function readEvents(body: AsyncIterable<Buffer>, onEvent: (data: Record<string, unknown>) => boolean) {
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (event.startsWith(":")) continue;
      if (onEvent(JSON.parse(event.replace(/^data: /, ""))) === true) return buffer;
    }
  }
  return buffer;
}

const timers = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;

describe("examples/chat-stream", () => {
  it("streams the agent's answer as server-sent events: tool call, tool result, every delta, then the finish", async () => {
    const { url } = await startWithDemoModel();

    const response = await request(`${url}/chat?q=${encodeURIComponent("What time is it?")}`);
    const parts: Array<Record<string, unknown>> = [];
    const rest = await readEvents(response.body, (part) => parts.push(part) < 0);

    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(rest).toBe("");
    const types = parts.map((part) => part.type);
    expect(types.slice(0, 2)).toEqual(["tool-call", "tool-result"]);
    expect(types.at(-1)).toBe("finish");
    const deltas = parts.filter((part) => part.type === "text-delta");
    expect(deltas.length).toBeGreaterThan(10);
    expect(types.slice(2, -1).every((type) => type === "text-delta")).toBe(true);
    const text = deltas.map((part) => part.text).join("");
    expect(text).toMatch(
      /^It is \d\d:\d\d:\d\d UTC on the server\. Streaming means you saw this sentence arrive word by word\.$/,
    );
    expect(parts.at(-1)).toMatchObject({ type: "finish", text, finishReason: "stop", iterations: 2 });
  });

  it("answers 400 naming what was expected when the question is missing or too long", async () => {
    const { url } = await startWithDemoModel();

    const missing = await request(`${url}/chat`);
    const long = await request(`${url}/chat?q=${"x".repeat(2_001)}`);

    expect(missing.statusCode).toBe(400);
    expect(await missing.body.json()).toEqual({
      error: "expected one query parameter q of 1-2000 characters",
    });
    expect(long.statusCode).toBe(400);
    await long.body.dump();
  });

  it("cancels the model request when the client disconnects, leaving no request, socket or timer behind", async () => {
    let modelSocketClosed!: () => void;
    const upstreamClosed = new Promise<void>((resolve) => (modelSocketClosed = resolve));
    let modelSockets = 0;
    const model = createServer((incoming, response) => {
      incoming.resume();
      incoming.on("end", () => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: "assistant", content: "Thinking" }, finish_reason: null }] })}\n\n`,
        );
        // ...and never more: only a client that goes away ends this.
      });
    });
    model.on("connection", (socket) => {
      modelSockets++;
      socket.once("close", () => {
        modelSockets--;
        modelSocketClosed();
      });
    });
    await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
    const baseline = timers();
    try {
      const { port } = model.address() as AddressInfo;
      chat = await startChatServer({
        model: openAiChat({ model: "m", baseURL: `http://127.0.0.1:${port}/v1`, stream: true }),
      });

      const response = await request(`${chat.url}/chat?q=hello`);
      await readEvents(response.body, (part) => {
        expect(part).toEqual({ type: "text-delta", text: "Thinking", iteration: 1 });
        return true;
      });
      response.body.destroy();

      await upstreamClosed;
      expect(modelSockets).toBe(0);
      const server = httpServerOf(chat.context);
      await expect.poll(() => server.activeRequests, { timeout: 5_000 }).toBe(0);
      await expect.poll(timers, { timeout: 5_000 }).toBeLessThanOrEqual(baseline);
    } finally {
      model.closeAllConnections();
      await new Promise<void>((resolve) => model.close(() => resolve()));
    }
  });
});
