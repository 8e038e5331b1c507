import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePage } from "./bundle-page.js";
import { type ChatBackend, startChatBackend } from "./server.js";

// A page bundled with React and @ai-sdk/react's useChat, in headless Chromium, against the
// routekit route answering the UI message stream (and the local demo model).

/** Chromium as the distribution installs it (`.ci/run` installs it when missing). */
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];
const available = existsSync(executablePath);
// In CI a missing Chromium fails the test (launching it fails); elsewhere the test is skipped.
if (!available && process.env.CI !== "true") {
  console.warn(`examples/ai-sdk-ui browser test skipped: no Chromium at ${executablePath}`);
}

let backend: ChatBackend | undefined;
beforeAll(async () => {
  if (!available && process.env.CI !== "true") return;
  backend = await startChatBackend(0, 60, await bundlePage());
}, 120_000);
afterAll(() => backend?.stop());

const WAIT = { timeout: 30_000 };
const inflight = () =>
  backend?.context.describe().routes.reduce((sum, route) => sum + route.counters.inflight, 0);

describe.skipIf(!available && process.env.CI !== "true")(
  "examples/ai-sdk-ui: useChat in headless Chromium",
  () => {
    it("shows the streamed answer and the tool call's result, then stops a run", {
      timeout: 120_000,
    }, async () => {
      const url = backend?.url;
      if (url === undefined) throw new Error("the backend did not start");
      const browser = await chromium.launch({ executablePath, args: ARGS });
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
        ).toMatch(
          /^It is .* UTC on the server\. Streaming means you saw this sentence arrive word by word\.$/,
        );
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
        const stopped = await page
          .locator("#messages li.assistant")
          .nth(1)
          .locator(".text")
          .allTextContents();
        expect(stopped.join("")).not.toMatch(/word by word\.$/);
        await expect.poll(inflight, { timeout: 10_000 }).toBe(0);
        expect(failures).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  },
);
