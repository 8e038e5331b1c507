import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createContext, type RouteContext } from "@routekit/core";
import "@routekit/llm";
import { serveMcpHttp, serveMcpStdio } from "@routekit/mcp";
import { z } from "zod";
import {
  type BenchOptions,
  type BenchRow,
  compare,
  printRow,
  rowOf,
  type Stats,
  summarise,
} from "./harness.js";
import { type HttpServerUnderTest, measureConcurrent } from "./mcp-concurrent.js";

// One MCP `tools/call` round trip, the SDK's own Client on both sides, one call at a time: through
// routekit's MCP server (a tool route adding two numbers) beside a bare SDK McpServer whose tool
// does the same addition. Every server is a child process (this file run with
// `--serve routekit|sdk stdio|http`), reached over its stdio or on 127.0.0.1. Besides the round
// trip's wall clock, the server process's CPU time per call is read from /proc (Linux): on a busy
// machine the wall clock also measures how soon each process gets a CPU.

const TOOL_NAME = "add";
const TOOL_DESCRIPTION = "Adds two numbers.";

/** A context whose one exposed tool is a route: `{ a, b }` in, the sum as text out. */
async function routekitContext(): Promise<RouteContext> {
  const context = createContext({ name: "mcp-bench", logLevel: "warn" });
  await context.addRoutes((r) => {
    r.from("direct:add")
      .asLlmTool(TOOL_NAME, {
        description: TOOL_DESCRIPTION,
        input: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
          additionalProperties: false,
        },
      })
      .transform((exchange) => {
        const { a, b } = exchange.body as { a: number; b: number };
        return String(a + b);
      });
  });
  await context.start();
  return context;
}

/** The baseline: the SDK's McpServer with the same tool, written as its documentation shows. */
function bareSdkServer(): McpServer {
  const server = new McpServer({ name: "bare-sdk", version: "1.0.0" });
  server.registerTool(
    TOOL_NAME,
    { description: TOOL_DESCRIPTION, inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  return server;
}

/** The baseline over HTTP: a bare Node server, one SDK McpServer per session, as the SDK's examples. */
async function bareSdkHttp(): Promise<{ url: string; close: () => Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer(async (request, response) => {
    const id = request.headers["mcp-session-id"];
    const existing = typeof id === "string" ? sessions.get(id) : undefined;
    if (existing !== undefined) return existing.handleRequest(request, response);
    if (typeof id === "string") {
      response.writeHead(404).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    await bareSdkServer().connect(transport);
    await transport.handleRequest(request, response);
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    async close() {
      for (const transport of sessions.values()) await transport.close();
      const closed = new Promise((resolve) => http.close(resolve));
      http.closeAllConnections();
      await closed;
    },
  };
}

type Side = "routekit" | "sdk";

/** `--serve routekit|sdk stdio|http`: a server in this (child) process, until its stdin ends. */
async function serve(side: string, transport: string): Promise<void> {
  // Over stdio, stdout carries the protocol; over HTTP, only the URL goes there.
  for (const method of ["log", "info", "debug"] as const) console[method] = console.error;
  if (transport === "stdio") {
    if (side === "sdk") return void (await bareSdkServer().connect(new StdioServerTransport()));
    const context = await routekitContext();
    const server = await serveMcpStdio(context, { tools: [TOOL_NAME] });
    await server.closed;
    await context.stop();
    return;
  }
  let close: () => Promise<void>;
  if (side === "sdk") {
    const server = await bareSdkHttp();
    process.stdout.write(`listening ${server.url}\n`);
    close = server.close;
  } else {
    const context = await routekitContext();
    const server = await serveMcpHttp(context, { tools: [TOOL_NAME] });
    process.stdout.write(`listening ${server.url}\n`);
    close = async () => {
      await server.close();
      await context.stop();
    };
  }
  process.stdin.resume();
  await once(process.stdin, "end");
  await close();
}

/** A server under test: the SDK Client connected to it, and the process it runs in. */
interface Running {
  readonly client: Client;
  readonly pid: number;
  close(): Promise<void>;
}

/** This file as a child process serving `side` over `transport`. */
function childCommand(side: Side, transport: "stdio" | "http") {
  return {
    command: process.execPath,
    args: [...process.execArgv, fileURLToPath(import.meta.url), "--serve", side, transport],
    cwd: fileURLToPath(new URL(".", import.meta.url)),
  };
}

async function connectClient(transport: Transport): Promise<Client> {
  const client = new Client({ name: "bench-client", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** The SDK Client on a child process serving over stdio, as an MCP host starts one. */
async function startOverStdio(side: Side): Promise<Running> {
  const transport = new StdioClientTransport({
    ...childCommand(side, "stdio"),
    env: { ...process.env } as Record<string, string>,
    stderr: "inherit",
  });
  const client = await connectClient(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error(`the ${side} stdio server has no process id`);
  return { client, pid, close: () => client.close() };
}

/** A child process serving `side` over Streamable HTTP on 127.0.0.1: its URL once it listens. */
export async function spawnHttpServer(side: Side): Promise<HttpServerUnderTest & { pid: number }> {
  const { command, args, cwd } = childCommand(side, "http");
  const child = spawn(command, args, { cwd, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const close = async () => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString("utf8");
        const match = /listening (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`the ${side} HTTP server exited (${code}): ${output}`)));
    });
    return { url, pid: child.pid ?? 0, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The SDK Client over Streamable HTTP on a child process listening on 127.0.0.1. */
async function startOverHttp(side: Side): Promise<Running> {
  const server = await spawnHttpServer(side);
  try {
    const client = await connectClient(
      new StreamableHTTPClientTransport(new URL(server.url), { fetch: fetchWithOwnSignal }),
    );
    return {
      client,
      pid: server.pid,
      async close() {
        await client.close();
        await server.close();
      },
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/**
 * Global fetch, each request with a signal of its own following the transport's: the SDK's HTTP
 * client hands every request its one long-lived signal, and undici drops each request's listener
 * on it only when the request is collected, so thousands of calls pile up listeners (and a
 * max-listeners warning). The same on both sides; the server code is untouched.
 */
export const fetchWithOwnSignal: typeof fetch = (input, init) =>
  fetch(input, init?.signal == null ? init : { ...init, signal: AbortSignal.any([init.signal]) });

/** Whether a process's CPU time can be read (Linux /proc); elsewhere only the wall-clock rows. */
const HAS_PROC = existsSync("/proc/self/task");

/** CPU time of a process so far, in ns: every thread's time on a CPU (Linux /proc). */
function processCpuNs(pid: number): number {
  if (!HAS_PROC) return Number.NaN;
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return total;
}

const ownCpuNs = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) * 1_000;
};

/** Per-call CPU time of each timed run (warm-ups left out): the server's, and the client's. */
interface CpuSamples {
  server: number[];
  client: number[];
  calls: number;
  runs: number;
}

/**
 * `iterations` calls of `add`, one after the other, each answer checked; records the CPU time the
 * server process and this (client) process spent on them.
 */
function calls(running: Running, samples: CpuSamples, warmups: number) {
  return async (iterations: number) => {
    const serverBefore = processCpuNs(running.pid);
    const clientBefore = ownCpuNs();
    for (let index = 0; index < iterations; index++) {
      const result = await running.client.callTool({ name: TOOL_NAME, arguments: { a: index, b: 1 } });
      const content = result.content as Array<{ type: string; text?: string }>;
      if (result.isError === true || content[0]?.text !== String(index + 1)) {
        throw new Error(`add(${index}, 1) answered ${JSON.stringify(result)}`);
      }
    }
    const clientNs = ownCpuNs() - clientBefore;
    const serverNs = processCpuNs(running.pid) - serverBefore;
    samples.calls += iterations;
    if (samples.runs++ < warmups) return;
    samples.server.push(serverNs / iterations);
    samples.client.push(clientNs / iterations);
  };
}

const WARMUPS = 2;

/** Wall-clock and CPU rows of one transport: routekit and the bare SDK in alternating rounds. */
async function measure(
  transport: "stdio" | "Streamable HTTP",
  start: (side: Side) => Promise<Running>,
  iterations: number,
  runs: number,
): Promise<BenchRow[]> {
  const routekit = await start("routekit");
  try {
    const sdk = await start("sdk");
    try {
      const cpu = {
        routekit: { server: [], client: [], calls: 0, runs: 0 } as CpuSamples,
        sdk: { server: [], client: [], calls: 0, runs: 0 } as CpuSamples,
      };
      const wall = await compare(
        calls(routekit, cpu.routekit, WARMUPS),
        calls(sdk, cpu.sdk, WARMUPS),
        iterations,
        runs,
      );
      const [routekitServer, sdkServer] = [summarise(cpu.routekit.server), summarise(cpu.sdk.server)];
      const [routekitClient, sdkClient] = [summarise(cpu.routekit.client), summarise(cpu.sdk.client)];
      const where = transport === "stdio" ? "a child process over stdio" : "a child process on 127.0.0.1";
      const subject = `routekit ${transport === "stdio" ? "serveMcpStdio" : "serveMcpHttp"}, a tool route`;
      const baselineDescription =
        transport === "stdio"
          ? "@modelcontextprotocol/sdk McpServer with the same tool (zod input schema, adds two numbers) on StdioServerTransport, in a child process"
          : "@modelcontextprotocol/sdk McpServer with the same tool, one per session, on StreamableHTTPServerTransport behind a bare node:http server (no Host, Origin or token checks), in a child process";
      const counts = `${iterations} calls per run, one at a time, each answer checked (${cpu.routekit.calls} and ${cpu.sdk.calls} calls in all)`;
      const target = "≤ 1.2× the bare SDK server";
      const met = (ratio: number) => ratio <= 1.2;
      const rows = [
        rowOf(
          {
            benchmark: `MCP tools/call round trip over ${transport} (server in ${where}, SDK Client)`,
            subject,
            baseline: "bare SDK McpServer",
            baselineDescription,
            subjectStats: wall.subject,
            baselineStats: wall.baseline,
            target,
            note: `${counts}; wall clock from the client, so on a loaded machine it also times how soon the other process gets a CPU`,
          },
          met,
        ),
        rowOf(
          {
            benchmark: `MCP tools/call server CPU time over ${transport}`,
            subject: `${subject}, CPU per call`,
            baseline: "bare SDK McpServer, CPU per call",
            baselineDescription: `${baselineDescription}; CPU time of the server process (all its threads) per call, from /proc`,
            subjectStats: routekitServer,
            baselineStats: sdkServer,
            target,
            note: `the same runs; the SDK Client in the bench process spent ${formatMicros(routekitClient)} and ${formatMicros(sdkClient)} per call, so client + server is ${((routekitServer.medianNs + routekitClient.medianNs) / (sdkServer.medianNs + sdkClient.medianNs)).toFixed(2)}× in CPU`,
          },
          met,
        ),
      ];
      return HAS_PROC ? rows : rows.slice(0, 1);
    } finally {
      await sdk.close();
    }
  } finally {
    await routekit.close();
  }
}

const formatMicros = (stats: Stats): string => `${(stats.medianNs / 1_000).toFixed(1)} µs`;

export async function runMcpBench(options: BenchOptions): Promise<BenchRow[]> {
  // The server's CPU time comes from /proc/<pid>/task/*/schedstat, whose first field counts
  // nanoseconds on a CPU: its resolution does not limit a short run. But a run of 400 stdio calls
  // is only about 50 ms of server CPU, and its CPU rows swung from 0.85 to 1.68 between whole
  // runs of this file on a loaded machine; 2,000 stdio calls a run (some 250 ms) hold steadier.
  // 400 HTTP calls already take hundreds of milliseconds.
  const stdioCalls = options.quick ? 50 : 2_000;
  const httpCalls = options.quick ? 50 : 400;
  const runs = options.quick ? 3 : 10;
  const rows = [
    ...(await measure("stdio", startOverStdio, stdioCalls, runs)),
    ...(await measure("Streamable HTTP", startOverHttp, httpCalls, runs)),
  ];
  try {
    rows.push(
      await measureConcurrent(spawnHttpServer, TOOL_NAME, fetchWithOwnSignal, options.quick ? 4 : 20, runs),
    );
  } catch (error) {
    // The rows above stand on their own: a failed load run is reported, not hidden, and not fatal.
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
    console.error(`mcp: the concurrent-clients row was not measured: ${String(error)}${cause}`);
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const position = process.argv.indexOf("--serve");
  if (position !== -1) {
    await serve(process.argv[position + 1] ?? "routekit", process.argv[position + 2] ?? "stdio");
  } else {
    const rows = await runMcpBench({ quick: process.argv.includes("--quick") });
    for (const row of rows) printRow(row);
  }
}
