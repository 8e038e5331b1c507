import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { anthropicMessages, openAiChat } from "../src/providers/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";
import { openAiTextReply } from "./support/openai-server.js";

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, "abort").length;
const ask = { messages: [{ role: "user" as const, content: "x" }], tools: [] };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a model call and the caller's signal", () => {
  it("leaves no listener on the caller's signal after calls that answered, failed or were retried", async () => {
    server = await startLoopbackServer([
      { json: openAiTextReply("one") },
      { status: 500, text: "busy" },
      { json: openAiTextReply("two") },
      { status: 400, text: "bad request" },
    ]);
    const model = openAiChat({ model: "m", baseURL: server.url, apiKey: "k", maxRetries: 1 });
    const controller = new AbortController();
    const signal = controller.signal;

    expect((await model.generate({ ...ask, signal })).text).toBe("one");
    expect((await model.generate({ ...ask, signal })).text).toBe("two");
    await expect(model.generate({ ...ask, signal })).rejects.toThrow(/HTTP 400: bad request/);

    expect(server.requests).toHaveLength(4);
    // undici removes its listener a tick after the reply was read.
    await new Promise((resolve) => setImmediate(resolve));
    expect(abortListeners(signal)).toBe(0);
  });

  it("stops the wait between attempts with the caller's reason", async () => {
    server = await startLoopbackServer([{ status: 503, headers: { "retry-after": "30" }, text: "later" }]);
    const model = anthropicMessages({ model: "m", baseURL: server.url, apiKey: "k", maxRetries: 2 });
    const controller = new AbortController();
    const reason = new Error("caller left");
    const generated = model.generate({ ...ask, signal: controller.signal });
    // Abort once the 503 has been answered: the provider then waits out retry-after (30 s). A fixed
    // 50 ms timer could fire during the first request on a loaded machine.
    await vi.waitFor(() => expect(server?.requests).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort(reason);

    await expect(generated).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it("makes no request when the caller's signal has already fired", async () => {
    server = await startLoopbackServer([{ json: openAiTextReply("never") }]);
    const model = openAiChat({ model: "m", baseURL: server.url, apiKey: "k" });
    const reason = new Error("too late");

    await expect(model.generate({ ...ask, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });
});
