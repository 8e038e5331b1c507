import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatBackend, startChatBackend } from "../ai-sdk-ui/server.js";

// The AI SDK's own client code (what useChat runs: its transport and its stream reader) against a
// routekit route answering the UI message stream.

let backend: ChatBackend;
beforeAll(async () => {
  backend = await startChatBackend(0, 30);
});
afterAll(() => backend.stop());

function ask(text: string, history: UIMessage[] = [], abortSignal?: AbortSignal) {
  const transport = new DefaultChatTransport<UIMessage>({ api: `${backend.url}/api/chat` });
  const messages: UIMessage[] = [
    ...history,
    { id: `u${history.length}`, role: "user", parts: [{ type: "text", text }] },
  ];
  return transport.sendMessages({
    chatId: "chat-1",
    messageId: undefined,
    messages,
    trigger: "submit-message",
    abortSignal,
  });
}

async function lastMessage(
  stream: ReadableStream<never> | Awaited<ReturnType<typeof ask>>,
): Promise<UIMessage | undefined> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: stream as Awaited<ReturnType<typeof ask>> }))
    last = message;
  return last;
}

describe("examples/ai-sdk-ui: the UI message stream read by the AI SDK's client", () => {
  it("renders the text, the tool call with its output, and the usage", async () => {
    const response = await fetch(`${backend.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: "c",
        messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "time?" }] }],
      }),
    });
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const raw = await response.text();
    expect(raw.trimEnd().endsWith("data: [DONE]")).toBe(true);

    const message = await lastMessage(await ask("What time is it in UTC?"));
    expect(message?.role).toBe("assistant");
    const tool = message?.parts.find((part) => part.type === "tool-local_time") as
      | { state: string; input: unknown; output: unknown }
      | undefined;
    expect(tool).toMatchObject({ state: "output-available", input: { zone: "UTC" } });
    expect(String(tool?.output)).toMatch(/UTC$/);
    const text = message?.parts
      .filter((part) => part.type === "text")
      .map((part) => (part as { text: string }).text)
      .join("");
    expect(text).toMatch(/^It is .* on the server\. Streaming means/);
    expect(message?.parts.filter((part) => part.type === "step-start")).toHaveLength(2);
    expect(message?.metadata).toMatchObject({ usage: { inputTokens: expect.any(Number) }, iterations: 2 });

    // The next request carries the whole conversation back, tool parts included.
    const next = await lastMessage(await ask("And now?", [message as UIMessage]));
    expect(next?.parts.some((part) => part.type === "text")).toBe(true);
  });

  it("stops the run on the server when the page stops reading", async () => {
    const controller = new AbortController();
    const stream = await ask("What time is it?", [], controller.signal);
    const reader = stream.getReader();
    for (;;) {
      const { value } = await reader.read();
      if (value?.type === "text-delta") break;
    }
    controller.abort();
    await reader.cancel().catch(() => undefined);
    // The answer would take seconds more; the route's exchange ends once the run is cancelled.
    await expect
      .poll(
        () => backend.context.describe().routes.reduce((sum, route) => sum + route.counters.inflight, 0),
        { timeout: 5_000 },
      )
      .toBe(0);
  });
});
