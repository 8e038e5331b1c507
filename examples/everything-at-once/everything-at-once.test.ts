import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AgentRunSummary, ConsoleGraph } from "@routekit/console";
import { connectPostgres } from "@routekit/postgres";
import { connectRedis } from "@routekit/redis";
import { servicesMissing } from "@routekit/test-support";
import { describe, expect, it } from "vitest";
import { type ExampleProcess, type ProcessExit, startExampleProcess } from "./example-process.js";
import { FINAL_ANSWER, type ModelServer, startModelServer } from "./model-server.js";
import type { Completion } from "./order-parts.js";
import type { ProcessReport, SpanRecord } from "./process-report.js";

const skip = await servicesMissing(["RabbitMQ", "Redis", "PostgreSQL"]);

/** `promise`, or a failure naming `what` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The JSON a GET on the console's API answers. */
async function consoleApi<T>(consoleUrl: string, path: string): Promise<T> {
  const response = await fetch(new URL(path, consoleUrl));
  expect(response.status, `GET ${path}`).toBe(200);
  return (await response.json()) as T;
}

/** Stops a process with SIGTERM: its report, what it said kept it alive, and its exit, within `ms`. */
async function stop(
  example: ExampleProcess,
  name: string,
  ms: number,
): Promise<{ report: ProcessReport; exit: ProcessExit; leaked: readonly string[] | undefined }> {
  example.kill("SIGTERM");
  const report = await within(example.report, ms, `${name}'s report after SIGTERM`);
  const exit = await within(example.exited, ms, `${name}'s exit after its report`).catch((error: Error) => {
    throw new Error(
      `${error.message}; what keeps it alive: ${example.leaked()?.join(", ") ?? "not said yet"}`,
    );
  });
  return { report, exit, leaked: example.leaked() };
}

/** Ends a process still running: SIGTERM, then SIGKILL after 10 s. */
async function end(example: ExampleProcess): Promise<void> {
  example.kill("SIGTERM");
  await within(example.exited, 10_000, "exit").catch(() => example.kill("SIGKILL"));
  await example.exited;
}

/** Removes the run's keys and tables, whatever the processes left. */
async function cleanStores(prefix: string): Promise<void> {
  const redis = await connectRedis({ host: "127.0.0.1", port: 6379, keyPrefix: prefix });
  await redis.idempotentRepository("parts").clear();
  await redis.aggregationRepository("orders").clear();
  await redis.close();
  const postgres = await connectPostgres({ host: "127.0.0.1", port: 5432, tablePrefix: prefix });
  await postgres.dropTables();
  await postgres.close();
}

/** The worker's completed groups, one line each, sorted. */
function groups(completions: readonly Completion[]): string[] {
  return completions
    .map(({ store, order, parts }) => `${store} ${order}: ${[...parts].sort().join(" ")}`)
    .sort();
}

describe.skipIf(skip)("examples/everything-at-once", () => {
  it("runs an agent over HTTP whose tool crosses RabbitMQ to a worker on Redis and PostgreSQL, traced as one trace, served over MCP, shown by the console, and stops cleanly", async ({
    onTestFailed,
  }) => {
    const run = `${process.pid}_${randomBytes(4).toString("hex")}`;
    const partsQueue = `everything-at-once-parts-${run}`;
    const prefix = `everything_${run}_`;
    const token = randomBytes(16).toString("hex");
    const model: ModelServer = await startModelServer();
    const worker = startExampleProcess("worker.ts", [partsQueue, prefix]);
    const gateway = startExampleProcess("gateway.ts", [model.url, partsQueue, token]);
    onTestFailed(() => {
      console.error(`gateway stderr:\n${gateway.errorOutput()}\nworker stderr:\n${worker.errorOutput()}`);
    });
    try {
      await within(worker.ready, 30_000, "the worker's ready line");
      const { httpUrl, consoleUrl } = (await within(gateway.ready, 30_000, "the gateway's ready line")) as {
        httpUrl: string;
        consoleUrl: string;
      };
      await askTheAgent(httpUrl, model);
      await callOverMcp(httpUrl, token);
      await readTheConsole(consoleUrl);
      await stopBoth(gateway, worker);
    } finally {
      // After a failure: stopped as usual when they can be (the worker's stop deletes the run's
      // queues), killed when they cannot.
      await Promise.all([end(gateway), end(worker)]);
      await model.close();
      await cleanStores(prefix);
    }
  }, 60_000);
});

/** POST /ask runs the llm step; its three tool calls cross RabbitMQ to the worker. */
async function askTheAgent(httpUrl: string, model: ModelServer): Promise<void> {
  const answer = await fetch(`${httpUrl}/ask`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ question: "Record order o-1: a wheel and a frame." }),
  });
  expect.soft(await answer.text()).toBe(FINAL_ANSWER);
  expect.soft(answer.status).toBe(200);
  const toolAnswers = (model.conversations.at(-1) ?? [])
    .filter((message) => message.role === "tool")
    .map((message) => [message.tool_call_id, message.content]);
  expect.soft(toolAnswers, "the tool answers the model saw").toEqual([
    ["call_1", JSON.stringify({ recorded: "o-1/wheel" })],
    ["call_2", JSON.stringify({ recorded: "o-1/frame" })],
    // The same part again: the idempotent consumer stops it, and the route's answer is the
    // request as it came.
    ["call_3", JSON.stringify({ order: "o-1", part: "wheel" })],
  ]);
}

/** The same tool over MCP, with the official SDK's client: order o-2's two parts. */
async function callOverMcp(httpUrl: string, token: string): Promise<void> {
  const mcp = new Client({ name: "everything-at-once-test", version: "1.0.0" });
  try {
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${httpUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["record_part"]);
    for (const part of ["wheel", "frame"]) {
      const result = await mcp.callTool({ name: "record_part", arguments: { order: "o-2", part } });
      expect.soft(result.isError ?? false, JSON.stringify(result)).toBe(false);
      expect
        .soft(result.content)
        .toEqual([{ type: "text", text: JSON.stringify({ recorded: `o-2/${part}` }) }]);
    }
  } finally {
    await mcp.close();
  }
}

/** The console's API: the route graph with the tool, and the agent run with its calls. */
async function readTheConsole(consoleUrl: string): Promise<void> {
  const graph = await consoleApi<ConsoleGraph>(consoleUrl, "api/graph");
  expect.soft(graph.routes.map((route) => route.id).sort()).toEqual(["ask", "record-part"]);
  expect.soft(graph.routes.find((route) => route.id === "record-part")?.tool?.name).toBe("record_part");
  expect
    .soft(graph.edges)
    .toContainEqual(expect.objectContaining({ from: "route:ask", to: "route:record-part", kind: "tool" }));
  const { agentRuns } = await consoleApi<{ agentRuns: AgentRunSummary[] }>(consoleUrl, "api/agent-runs");
  expect
    .soft(agentRuns)
    .toEqual([expect.objectContaining({ routeId: "ask", status: "completed", modelCalls: 3, toolCalls: 3 })]);
}

/**
 * SIGTERM to both. Then: no exchange failed in either, each store completed both orders, one
 * trace across the broker, and each process ended by itself with nothing left open.
 */
async function stopBoth(gateway: ExampleProcess, worker: ExampleProcess): Promise<void> {
  const [stoppedGateway, stoppedWorker] = await Promise.all([
    stop(gateway, "the gateway", 15_000),
    stop(worker, "the worker", 15_000),
  ]);
  const failures = [...stoppedGateway.report.failures, ...stoppedWorker.report.failures];
  expect.soft(failures, "exchanges that failed, in both processes").toEqual([]);
  const { completions } = stoppedWorker.report.details as { completions: Completion[] };
  expect
    .soft(groups(completions), "the groups the worker's aggregators completed")
    .toEqual([
      "postgres o-1: frame wheel",
      "postgres o-2: frame wheel",
      "redis o-1: frame wheel",
      "redis o-2: frame wheel",
    ]);
  expect.soft(oneTraceAcrossTheBroker(stoppedGateway.report.spans, stoppedWorker.report.spans)).toEqual({
    agentRequestsInTheRequestTrace: 3,
    workerSpansOutsideTheGatewaysTraces: [],
  });
  expect.soft(stoppedGateway.leaked, "what kept the gateway alive after its stop").toBeUndefined();
  expect.soft(stoppedWorker.leaked, "what kept the worker alive after its stop").toBeUndefined();
  expect.soft(stoppedGateway.exit).toEqual({ code: 0, signal: null });
  expect.soft(stoppedWorker.exit).toEqual({ code: 0, signal: null });
}

/**
 * How the worker's spans relate to the gateway's: how many of the worker's `parts` route spans
 * belong to the trace of `POST /ask` (the agent's three tool calls), and which of its spans
 * belong to no trace the gateway started.
 */
function oneTraceAcrossTheBroker(gateway: readonly SpanRecord[], worker: readonly SpanRecord[]) {
  const request = gateway.find((span) => span.kind === "server" && span.name === "POST /ask");
  const gatewayTraces = new Set(gateway.map((span) => span.traceId));
  const parts = worker.filter((span) => span.routeId === "parts" && span.kind === "consumer");
  return {
    agentRequestsInTheRequestTrace: parts.filter((span) => span.traceId === request?.traceId).length,
    workerSpansOutsideTheGatewaysTraces: parts
      .filter((span) => !gatewayTraces.has(span.traceId))
      .map((span) => span.name),
  };
}
