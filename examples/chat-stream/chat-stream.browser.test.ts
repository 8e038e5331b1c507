/// <reference lib="dom" />
// page.evaluate() callbacks run in the browser: they see its DOM.
import { openAiChat } from "@routekit/llm";
import { browserAvailable } from "@routekit/test-support";
import { launchChromium } from "@routekit/test-support/chromium";
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

describe.skipIf(!browserAvailable())("examples/chat-stream in headless Chromium", () => {
  it("shows the answer arriving over EventSource, then closes the stream", { timeout: 60_000 }, async () => {
    demo = await startDemoModelServer(30);
    chat = await startChatServer({
      model: openAiChat({ model: "demo-model", baseURL: demo.url, stream: true }),
    });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${chat.url}/`);
      await page.click("button");

      // Part of the answer is on the page while the rest is still streaming.
      await page.waitForFunction(
        () => (document.getElementById("answer")?.textContent ?? "").startsWith("It is "),
        undefined,
        { timeout: 20_000 },
      );
      const partial = await page.textContent("#answer");
      const statusWhilePartial = await page.textContent("#status");
      await page.waitForFunction(
        () => document.getElementById("status")?.textContent?.startsWith("done"),
        undefined,
        {
          timeout: 20_000,
        },
      );

      expect(statusWhilePartial).toBe("streaming");
      expect(partial).not.toMatch(/word by word\.$/);
      expect(await page.textContent("#answer")).toMatch(/^It is .* UTC on the server\. .* word by word\.$/);
      expect(await page.textContent("#tools")).toBe("calling local_time… local_time answered. ");
      expect(await page.textContent("#status")).toBe("done (32 tokens out)");
    } finally {
      await browser.close();
    }
  });
});
