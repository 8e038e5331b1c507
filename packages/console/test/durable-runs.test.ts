import { consoleOf, consolePlugin } from "@routekit/console";
import { createContext, createMemoryCheckpointStore, type RouteContext } from "@routekit/core";
import { LLM_RUN_ID_HEADER, llm, llmPlugin } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { browserAvailable } from "@routekit/test-support";
import { launchChromium } from "@routekit/test-support/chromium";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger, TOKEN } from "./support/order-context.js";

interface Parked {
  available: boolean;
  reason?: string;
  runs: Array<{
    runId: string;
    routeId?: string;
    calls: Array<{ callId: string; toolName: string; arguments: string }>;
  }>;
}

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

/** A context with the console and a durable agent whose `refund` tool waits for a person. */
async function start(runs: number, options: { durable?: boolean } = {}) {
  const refunds: string[] = [];
  // Every run parks first (a refund call each), then each answered run writes its answer.
  const park = {
    toolCalls: [{ id: "call_refund", name: "refund", arguments: { order: "A-1", cents: 1250 } }],
  };
  const answer = (request: { messages: readonly { role: string; results?: unknown }[] }) => ({
    text: `answered: ${JSON.stringify(request.messages.at(-1)?.results)}`,
  });
  const script = [...Array.from({ length: runs }, () => park), ...Array.from({ length: runs }, () => answer)];
  const started = createContext({ logger: silentLogger });
  started.use(consolePlugin({ token: TOKEN }));
  started.use(
    llmPlugin({
      models: { m: scriptedModel(script) },
      ...(options.durable === false
        ? {}
        : { durable: { store: createMemoryCheckpointStore(), recoverEveryMs: 0 } }),
    }),
  );
  await started.addRoutes((r) => {
    r.from("direct:refund")
      .asLlmTool("refund", { description: "Refunds an order.", durability: { needsApproval: true } })
      .transform((exchange) => {
        refunds.push(String(exchange.headers[LLM_RUN_ID_HEADER] ?? exchange.body));
        return "refunded";
      });
    const step = llm("m").tools("refund");
    r.from("direct:agent")
      .routeId("support")
      .to((options.durable === false ? step : step.durable()).uri());
  });
  await started.start();
  context = started;
  const url = consoleOf(started)?.url;
  if (url === undefined) throw new Error("the console did not start");
  const parkRun = (runId: string) =>
    started.request("direct:agent", "refund A-1", { [LLM_RUN_ID_HEADER]: runId });
  return { context: started, url, refunds, park: parkRun };
}

async function call(url: string, path: string, init: RequestInit = {}) {
  const response = await fetch(new URL(path, url), {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers as Record<string, string>) },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the console's parked durable runs", () => {
  it("lists parked runs with their waiting calls; approve and deny answer them through context.agents", async () => {
    const { url, park } = await start(2);
    await park("run-1");
    await park("run-2");
    const listed = await call(url, "/api/durable-runs");
    expect(listed.status).toBe(200);
    const parked = listed.body as unknown as Parked;
    expect(parked.available).toBe(true);
    expect(parked.runs.map((run) => run.runId).sort()).toEqual(["run-1", "run-2"]);
    expect(parked.runs[0]?.routeId).toBe("support");
    expect(parked.runs[0]?.calls).toEqual([
      expect.objectContaining({
        callId: "call_refund",
        toolName: "refund",
        arguments: '{"order":"A-1","cents":1250}',
      }),
    ]);

    const approved = await call(url, "/api/durable-runs/run-1/calls/call_refund/approve", { method: "POST" });
    expect(approved).toEqual({
      status: 200,
      body: { runId: "run-1", callId: "call_refund", approved: true, status: "completed" },
    });
    const denied = await call(url, "/api/durable-runs/run-2/calls/call_refund/deny", {
      method: "POST",
      body: JSON.stringify({ reason: "no ticket" }),
    });
    expect(denied.body).toMatchObject({ approved: false, status: "completed" });
    const runs = context!.agents;
    expect((await runs.get("run-1"))?.state.approvals).toEqual({});
    expect((await runs.get("run-1"))?.state.text).toContain("refunded");
    expect((await runs.get("run-2"))?.state.text).toContain("the call was not approved: no ticket");
    const by = (await runs.get("run-2"))?.state.messages.filter((message) => message.role === "tool");
    expect(JSON.stringify(by)).not.toContain('"refunded"');
    expect(((await call(url, "/api/durable-runs")).body as unknown as Parked).runs).toEqual([]);
  });

  it("refuses what it cannot answer, saying why", async () => {
    const { url, park } = await start(1);
    await park("run-3");
    const missing = await call(url, "/api/durable-runs/nope/calls/call_refund/approve", { method: "POST" });
    expect(missing).toEqual({
      status: 404,
      body: { error: "context.agents.approve: no durable run 'nope' in the store" },
    });
    const wrongCall = await call(url, "/api/durable-runs/run-3/calls/call_x/approve", { method: "POST" });
    expect(wrongCall.status).toBe(409);
    expect(wrongCall.body.error).toContain("has no such call waiting");
    const notJson = await call(url, "/api/durable-runs/run-3/calls/call_refund/deny", {
      method: "POST",
      body: "why",
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toContain('{ "reason": "..." }');
    const tooLong = await call(url, "/api/durable-runs/run-3/calls/call_refund/deny", {
      method: "POST",
      body: JSON.stringify({ reason: "x".repeat(5000) }),
    });
    expect(tooLong).toEqual({ status: 413, body: { error: "an answer's body is at most 4096 bytes" } });
    const get = await call(url, "/api/durable-runs/run-3/calls/call_refund/approve");
    expect(get.status).toBe(405);
    // A page on another site cannot answer for the person.
    const crossSite = await call(url, "/api/durable-runs/run-3/calls/call_refund/approve", {
      method: "POST",
      headers: { origin: "http://evil.test" },
    });
    expect(crossSite.status).toBe(403);
    expect((await context!.agents.get("run-3"))?.status).toBe("parked");
  });

  it("says so when the context has no durable runs", async () => {
    const { url } = await start(0, { durable: false });
    const listed = await call(url, "/api/durable-runs");
    expect(listed.body).toMatchObject({ available: false, runs: [] });
    expect(String(listed.body.reason)).toContain("durable runs need a store");
  });

  it.skipIf(!browserAvailable())(
    "a click on approve in Chromium resumes the run",
    { timeout: 90_000 },
    async () => {
      const { url, park, refunds } = await start(2);
      await park("run-4");
      await park("run-5");
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(`${url}?token=${TOKEN}`);
        const rows = page.locator("section.parked li.parked-call");
        await rows.first().waitFor({ timeout: 60_000 });
        expect(await rows.count()).toBe(2);
        await page.locator("li.parked-call", { hasText: "run-4" }).locator("button.approve").click();
        await page
          .locator("li.parked-call", { hasText: "run-4" })
          .waitFor({ state: "detached", timeout: 60_000 });
        await page.locator("li.parked-call", { hasText: "run-5" }).locator("button.deny").click();
        await page.locator("section.parked li.empty").waitFor({ timeout: 60_000 });
        expect((await context!.agents.get("run-4"))?.status).toBe("completed");
        expect((await context!.agents.get("run-5"))?.state.text).toContain("not approved");
        expect(refunds).toHaveLength(1);
      } finally {
        await browser.close();
      }
    },
  );
});
