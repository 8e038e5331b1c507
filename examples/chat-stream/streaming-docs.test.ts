import { openAiChat } from "@routekit/llm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type DemoModelServer, startDemoModelServer } from "./demo-model-server.js";
import { main } from "./streaming-docs.js";

let demo: DemoModelServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await demo?.close();
  demo = undefined;
});

describe("the streaming snippets of docs/guide/llm-step.md", () => {
  it("run as the page says against a streaming OpenAI-compatible server", async () => {
    demo = await startDemoModelServer(1);
    const written: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((text) => written.push(String(text)) > 0);
    vi.spyOn(console, "log").mockImplementation(() => {});

    await main(openAiChat({ model: "demo-model", baseURL: demo.url, stream: true }));

    expect(written.length).toBeGreaterThan(5);
  });
});
