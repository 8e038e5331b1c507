/// <reference lib="dom" />
// page.evaluate() callbacks run in the browser: they see its DOM.
import { mkdir } from "node:fs/promises";
import { consoleOf } from "@routekit/console";
import { browserAvailable } from "@routekit/test-support";
import { launchChromium } from "@routekit/test-support/chromium";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type QuickstartContext, startQuickstart } from "./support/quickstart-context.js";

const TOKEN = "browser-test-token-5678";
/** Screenshots go here (gitignored). */
const OUTPUT = new URL("../test-output/", import.meta.url);
const WAIT = { timeout: 60_000 };

let quickstart: QuickstartContext | undefined;
let browser: Browser | undefined;
let page: Page;
let consoleUrl: string;

async function ask(body: unknown): Promise<number> {
  const response = await fetch(quickstart!.askUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

const rowText = (routeId: string, cell: string) =>
  page.locator(`tr[data-route="${routeId}"] td.${cell}`).textContent();

describe.skipIf(!browserAvailable())("the console in headless Chromium, on the quickstart's routes", () => {
  beforeAll(async () => {
    await mkdir(OUTPUT, { recursive: true });
    quickstart = await startQuickstart({ token: TOKEN });
    consoleUrl = consoleOf(quickstart.context)!.url!;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1600, height: 1200 } });
    const response = await page.goto(`${consoleUrl}?token=${TOKEN}`);
    expect(response?.status()).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await quickstart?.close();
    if (quickstart !== undefined) expect(consoleOf(quickstart.context)?.connections).toBe(0);
  });

  it("draws the quickstart's routes, their steps, endpoints and tools", { timeout: 90_000 }, async () => {
    await page.locator("svg.graph g.route-node").first().waitFor(WAIT);
    const routes = await page.locator("svg.graph g.route-node text.route-id").allTextContents();
    expect(routes).toEqual(expect.arrayContaining(["ask", "enrich"]));
    expect(routes).toHaveLength(7);
    const tools = await page.locator("svg.graph text.route-tool").allTextContents();
    expect(tools.sort()).toEqual([
      "tool http_fetch",
      "tool json_path",
      "tool math_eval",
      "tool regex_extract",
      "tool xpath",
    ]);
    const graphText = await page.locator("svg.graph").textContent();
    expect(graphText).toContain("http:/ask?httpMethodRestrict=POST");
    expect(graphText).toContain("#3 httpFetch");
    expect(graphText).toContain(
      "#1 to(llm:assistant?tools=http_fetch,json_path,math_eval,regex_extract,xpath",
    );
    expect(graphText).toContain("mock:enriched");
    // Tool edges run from the ask route to each tool route.
    expect(await page.locator("svg.graph g.edge.tool").count()).toBe(5);
    const box = await page.locator("svg.graph").boundingBox();
    expect(box?.width).toBeGreaterThan(300);
    expect(box?.height).toBeGreaterThan(200);
    // A tool's schema opens from its route.
    await page.getByRole("button", { name: "tool.math_eval", exact: true }).click();
    await expect.poll(() => page.locator(".route-details pre").textContent()).toContain('"expression"');
    // The graph works from the keyboard: a route box takes the focus and opens with Enter.
    await page.locator('svg.graph g.route-node[aria-label^="route ask,"]').focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".route-details h3").textContent()).toBe("ask");
    // Each step's counters, p50 and p99 among them, in the selected route's step table.
    const askSteps = page.locator('table[aria-label="steps of route ask"] tbody tr');
    await expect.poll(() => askSteps.count()).toBe(4);
    await page.getByRole("button", { name: "tool.math_eval", exact: true }).click();
    await page.screenshot({ path: new URL("graph.png", OUTPUT).pathname, fullPage: true });
  });

  it("moves the counters and the exchange list when a request arrives", { timeout: 90_000 }, async () => {
    await expect.poll(() => page.locator(".connection").textContent(), WAIT).toContain("live");
    const exchangeRows = page.locator('ul[aria-label="recent exchanges"] .row');
    // The console records from when the page connected: the enrichment ran before, unrecorded.
    expect(await exchangeRows.filter({ hasText: "enrich" }).count()).toBe(0);
    const before = Number(await rowText("ask", "exchanges"));
    expect(await ask({ nothing: true })).toBe(400);
    expect(await ask({ sku: "G-2" })).toBe(400);
    await expect.poll(async () => Number(await rowText("ask", "exchanges")), WAIT).toBe(before + 2);
    const askRows = exchangeRows.filter({ hasText: "ask" });
    await expect.poll(() => askRows.count(), WAIT).toBe(2);
    await askRows.last().click();
    await page.locator(".timeline").waitFor(WAIT);
    expect(await page.locator(".timeline .step-label").allTextContents()).toEqual([
      "#1 process",
      "#2 filter",
    ]);
    expect(await page.locator(".timeline").textContent()).toContain("expected a JSON body");
    expect(await page.locator(".timeline").textContent()).toContain("nothing");
    // Search: only the second request's body holds G-2.
    await page.getByLabel("search exchanges").fill("G-2");
    await expect.poll(() => exchangeRows.count(), WAIT).toBe(1);
    expect(await exchangeRows.locator(".route").allTextContents()).toEqual(["ask"]);
    await page.getByLabel("search exchanges").fill("");
    await page.screenshot({ path: new URL("exchanges.png", OUTPUT).pathname, fullPage: true });
  });

  it("shows a split's parts with their steps under the split step", { timeout: 90_000 }, async () => {
    const context = quickstart!.context;
    await context.addRoutes((r) => {
      r.from("direct:restock")
        .routeId("restock")
        .split("${body}", (part) => part.setHeader("sku", "${body}").to("mock:restocked"));
    });
    await context.request("direct:restock", ["W-1", "G-2"]);
    const row = page.locator('ul[aria-label="recent exchanges"] .row', { hasText: "restock" });
    await row.first().waitFor(WAIT);
    await row.first().click();
    await page.locator(".timeline details.parts").waitFor(WAIT);
    expect(await page.locator(".timeline details.parts > summary").textContent()).toBe("2 parts");
    const parts = page.locator('.timeline ol.parts[aria-label="parts of #1 split"] > li');
    expect(await parts.count()).toBe(2);
    for (const index of [0, 1]) {
      expect(await parts.nth(index).locator(".step-label").allTextContents()).toEqual([
        "#1 split > #1 setHeader(sku)",
        "#1 split > #2 to(mock:restocked)",
      ]);
      expect(await parts.nth(index).locator(".part-head").textContent()).toContain("completed");
    }
    expect(await parts.nth(1).textContent()).toContain("G-2");
    expect(await page.locator(".timeline .bar").count()).toBe(5);
    await page.screenshot({ path: new URL("parts.png", OUTPUT).pathname, fullPage: true });
  });

  it("opens an agent run as a waterfall with its three tool calls", { timeout: 120_000 }, async () => {
    expect(await ask({ question: "How many widgets do we have?" })).toBe(200);
    const runRow = page.locator('ul[aria-label="agent runs"] .row', { hasText: "3 tool calls" });
    await runRow.first().waitFor(WAIT);
    await expect.poll(() => runRow.first().textContent(), WAIT).toContain("completed");
    await runRow.first().click();
    await page.locator(".waterfall").waitFor(WAIT);
    const toolTitles = await page.locator(".waterfall li.call.tool .call-title").allTextContents();
    expect(toolTitles.map((title) => title.split(" ")[1])).toEqual(["http_fetch", "json_path", "math_eval"]);
    const turns = await page.locator(".waterfall li.call.model .call-title").allTextContents();
    expect(turns).toHaveLength(4);
    expect(turns[0]).toMatch(/model turn 1: openai\/gpt-4o-mini · 100 in \/ 12 out tokens · tool_calls/);
    expect(turns[3]).toMatch(/stop$/);
    const arguments_ = await page.locator(".waterfall li.call.tool .arguments pre").allTextContents();
    expect(arguments_[2]).toBe('{"expression":"(140 + 95) * 3.5"}');
    const results = await page.locator(".waterfall li.call.tool .result pre").allTextContents();
    expect(results[2]).toBe("822.5");
    // Bars are laid on one time axis: every call has one.
    expect(await page.locator(".waterfall .bar").count()).toBe(7);
    await page.screenshot({ path: new URL("agent-run.png", OUTPUT).pathname, fullPage: true });
    // A tool call opens the exchange its tool route ran: the math_eval route's timeline.
    await page
      .locator(".waterfall li.call.tool")
      .nth(2)
      .getByRole("button", { name: "open the tool route's exchange" })
      .click();
    await expect
      .poll(() => page.locator(".timeline .step-label").allTextContents(), WAIT)
      .toEqual(["#1 mathEval"]);
    expect(await page.locator(".timeline").textContent()).toContain("llm.tool.call_id");
  });

  it("stops and starts a route from its button", { timeout: 60_000 }, async () => {
    await page.getByRole("button", { name: "stop route ask" }).click();
    await expect.poll(() => rowText("ask", "state"), WAIT).toBe("stopped");
    expect(quickstart!.context.routes().find((route) => route.id === "ask")?.state).toBe("stopped");
    expect(await ask({ question: "anyone?" })).not.toBe(200);
    await page.getByRole("button", { name: "start route ask" }).click();
    await expect.poll(() => rowText("ask", "state"), WAIT).toBe("started");
    expect(quickstart!.context.routes().find((route) => route.id === "ask")?.state).toBe("started");
  });

  it("is readable in dark mode", { timeout: 30_000 }, async () => {
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(dark).not.toBe(light);
    await page.screenshot({ path: new URL("dark.png", OUTPUT).pathname, fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("refuses a page with a bad token and shows nothing of the routes", { timeout: 30_000 }, async () => {
    const other = await browser!.newPage();
    try {
      const response = await other.goto(`${consoleUrl}?token=wrong-token-0000`);
      expect(response?.status()).toBe(401);
      expect(await other.textContent("body")).toContain("missing or wrong console token");
      expect(await other.locator("svg.graph").count()).toBe(0);
    } finally {
      await other.close();
    }
  });
});
