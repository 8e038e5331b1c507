import { browserAvailable } from "@routekit/test-support";
import { launchChromium } from "@routekit/test-support/chromium";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePage } from "./bundle-page.js";
import { type ChatBackend, startChatBackend } from "./server.js";

// A page bundled with React and @ai-sdk/react's useChat, in headless Chromium, against the
// routekit route answering the UI message stream (and the local demo model).

// Without Chromium the file is skipped (and counted), or with CI=true it fails.
const available = browserAvailable();

let backend: ChatBackend | undefined;
beforeAll(async () => {
  if (!available) return;
  backend = await startChatBackend(0, 60, await bundlePage());
}, 120_000);
afterAll(() => backend?.stop());

const WAIT = { timeout: 30_000 };
const inflight = () =>
  backend?.context.describe().routes.reduce((sum, route) => sum + route.counters.inflight, 0);

describe.skipIf(!available)("examples/ai-sdk-ui: useChat in headless Chromium", () => {
  it("shows the streamed answer and the tool call's result, then stops a run", {
    timeout: 120_000,
  }, async () => {
    const url = backend?.url;
    if (url === undefined) throw new Error("the backend did not start");
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const failures: string[] = [];
      page.on("pageerror", (error) => failures.push(error.message));
      await page.goto(`${url}/`);
      await page.fill("#prompt", "What time is it in UTC?");
      await page.click("#send");

      // The text arrives in pieces: part of it is on the page while the stream goes on.
      const assistant = page.locator("#messages li.assistant").last();
      await page.waitForFunction(
        () =>
          (document.querySelector("#messages li.assistant .text")?.textContent ?? "").startsWith("It is "),
        undefined,
        WAIT,
      );
      expect(await page.textContent("#status")).toBe("streaming");
      await page.waitForFunction(
        () => document.getElementById("status")?.textContent === "ready",
        undefined,
        WAIT,
      );
      const tool = assistant.locator('.tool[data-state="output-available"]');
      expect(await tool.textContent()).toMatch(/^local_time\(\{"zone":"UTC"\}\) → ".* UTC"$/);
      expect(
        await assistant
          .locator(".text")
          .allTextContents()
          .then((texts) => texts.join("")),
      ).toMatch(/^It is .* UTC on the server\. Streaming means you saw this sentence arrive word by word\.$/);
      expect(await page.textContent("#messages li.user")).toBe("What time is it in UTC?");

      // A second question carries the conversation back; Stop cancels the run on the server.
      await page.fill("#prompt", "And once more?");
      await page.click("#send");
      await page.waitForFunction(
        () =>
          (document.querySelectorAll("#messages li.assistant")[1]?.querySelector(".text")?.textContent ??
            "") !== "",
        undefined,
        WAIT,
      );
      await page.click("#stop");
      await page.waitForFunction(
        () => document.getElementById("status")?.textContent === "ready",
        undefined,
        WAIT,
      );
      const stopped = await page.locator("#messages li.assistant").nth(1).locator(".text").allTextContents();
      expect(stopped.join("")).not.toMatch(/word by word\.$/);
      await expect.poll(inflight, { timeout: 10_000 }).toBe(0);
      expect(failures).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
