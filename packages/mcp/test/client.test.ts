// routekit's client (mcpTools, the mcp: component) against a bare server made with the official
// SDK's McpServer, run as a child process over stdio and over Streamable HTTP.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createConsoleLogger, createContext, type RouteContext } from "@routekit/core";
import { llm, llmPlugin, type ToolResult } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type McpToolsOptions, mcpConnectionOf, mcpTools } from "../src/index.js";
import {
  isAlive,
  killChild,
  SDK_SERVER,
  SILENT_SERVER,
  spawnHttpChild,
  tsxCommand,
  waitFor,
} from "./support/processes.js";

const contexts: RouteContext[] = [];

async function startWith(options: Omit<McpToolsOptions, "name"> & { name?: string }): Promise<RouteContext> {
  const context = createContext({ logger: createConsoleLogger("off") });
  contexts.push(context);
  // A child loading TypeScript through tsx on a busy machine can take seconds to answer.
  context.use(mcpTools({ name: "sdk", stderr: "ignore", connectTimeoutMs: 60_000, ...options }));
  await context.start();
  return context;
}

const stdioServer = (args: string[] = []) => tsxCommand(SDK_SERVER, args);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 5_000 });
});

describe("mcpTools over stdio (the SDK's McpServer in a child process)", () => {
  it("registers the server's tools under a prefix and calls them like any tool", async () => {
    const context = await startWith(stdioServer());
    const names = context.tools.names();
    expect(names).toEqual(
      expect.arrayContaining(["sdk_greet", "sdk_weather", "sdk_sleep", "sdk_toggle", "sdk_dotted_name"]),
    );
    expect(context.tools.get("sdk_greet")?.inputSchema).toMatchObject({ required: ["name"] });
    expect(await context.tools.call("sdk_greet", { name: "Ada" })).toBe("hello Ada");
    expect(await context.tools.call("sdk_weather", { city: "Oslo" })).toEqual({
      city: "Oslo",
      temperature: 21,
    });
    expect(await context.tools.call("sdk_dotted_name", {})).toBe("dotted");
    await expect(context.tools.call("sdk_greet", { name: 5 })).rejects.toThrow(/\/name must be string/);
    const refused = (await context.tools.get("sdk_refuse")?.execute({})) as ToolResult;
    expect(refused).toMatchObject({ isError: true, output: "no such city" });
  }, 60_000);

  it("calls a tool from a route with to('mcp:server/tool')", async () => {
    const context = await startWith(stdioServer());
    await context.addRoutes((r) => {
      r.from("direct:greet").to("mcp:sdk/greet?timeout=5000");
      r.from("direct:weather").to("mcp:sdk/weather");
    });
    expect(await context.request("direct:greet", { name: "Grace" })).toBe("hello Grace");
    expect(await context.request("direct:weather", '{"city":"Rome"}')).toEqual({
      city: "Rome",
      temperature: 21,
    });
    await expect(context.request("direct:greet", {})).rejects.toThrow(/must have required property 'name'/);
    await context.addRoutes((r) => {
      r.from("direct:nothing").to("mcp:sdk/nothing");
    });
    await expect(context.request("direct:nothing", {})).rejects.toThrow(/has no tool 'nothing'/);
  }, 60_000);

  it("refuses an mcp: URI with an unknown option, naming it and the nearest valid one", async () => {
    const context = await startWith(stdioServer());
    await expect(
      context.addRoutes((r) => {
        r.from("direct:typo").to("mcp:sdk/greet?timout=5000");
      }),
    ).rejects.toThrow(/unknown option 'timout' \(did you mean timeout\?\)/);
    await expect(
      context.addRoutes((r) => {
        r.from("direct:server").to("mcp:sdx/greet");
      }),
    ).rejects.toThrow(/no MCP server named 'sdx' \(did you mean 'sdk'\?\)/);
  }, 60_000);

  it("refuses unknown mcpTools options, naming the nearest valid one", () => {
    expect(() => mcpTools({ name: "x", command: "node", comand: "y" } as never)).toThrow(
      /unknown option 'comand' \(did you mean 'command'\?\)/,
    );
    expect(() => mcpTools({ name: "x" })).toThrow(/exactly one of 'command'.*or 'url'/);
  });

  it("lets an llm step offer and call the server's tools (scripted model, offline)", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "sdk_greet", arguments: { name: "Linus" } }] },
      (request) => {
        const answer = request.messages.at(-1);
        return { text: `the tool said: ${answer?.role === "tool" ? answer.results[0]?.output : "?"}` };
      },
    ]);
    const context = createContext({ logger: createConsoleLogger("off") });
    contexts.push(context);
    context.use(llmPlugin({ models: { scripted: model } }));
    context.use(mcpTools({ name: "sdk", stderr: "ignore", connectTimeoutMs: 60_000, ...stdioServer() }));
    await context.addRoutes((r) => {
      r.from("direct:ask").to(llm("scripted").tools("sdk_greet").uri());
    });
    await context.start();
    expect(await context.request("direct:ask", "greet Linus")).toBe("the tool said: hello Linus");
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(["sdk_greet"]);
  }, 60_000);

  it("re-registers tools on notifications/tools/list_changed", async () => {
    const context = await startWith(stdioServer());
    expect(context.tools.has("sdk_extra")).toBe(false);
    expect(await context.tools.call("sdk_toggle", {})).toBe("added");
    await waitFor(() => context.tools.has("sdk_extra"), 10_000, "sdk_extra to be registered");
    expect(await context.tools.call("sdk_extra", {})).toBe("extra!");
    expect(await context.tools.call("sdk_toggle", {})).toBe("removed");
    await waitFor(() => !context.tools.has("sdk_extra"), 10_000, "sdk_extra to be unregistered");
  }, 60_000);

  it("bounds a call the server never answers", async () => {
    const context = await startWith({ ...stdioServer(), callTimeoutMs: 300 });
    const started = Date.now();
    await expect(context.tools.call("sdk_hang", {})).rejects.toThrow(/did not answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The caller's shorter deadline wins, and the connection is still usable.
    await expect(context.tools.call("sdk_sleep", { ms: 10_000 }, { timeoutMs: 100 })).rejects.toThrow(
      /timed out/,
    );
    expect(await context.tools.call("sdk_greet", { name: "again" })).toBe("hello again");
  }, 60_000);

  it("fails to start, bounded, against a server that never answers, and kills its process", async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), "routekit-mcp-")), "pid");
    const context = createContext({ logger: createConsoleLogger("off") });
    contexts.push(context);
    context.use(
      mcpTools({
        name: "silent",
        connectTimeoutMs: 1_500,
        command: process.execPath,
        args: [SILENT_SERVER, pidFile],
      }),
    );
    const started = Date.now();
    await expect(context.start()).rejects.toThrow(/mcp 'silent': cannot connect to the MCP server/);
    expect(Date.now() - started).toBeLessThan(15_000);
    await waitFor(() => existsSync(pidFile), 5_000, "the pid file");
    const pid = Number(readFileSync(pidFile, "utf8"));
    await waitFor(() => !isAlive(pid), 10_000, "the silent server to be killed");
  }, 60_000);

  it("reconnects with backoff after the server dies mid-call", async () => {
    const context = await startWith({ ...stdioServer(), reconnect: { initialDelayMs: 50, maxDelayMs: 500 } });
    const connection = mcpConnectionOf(context, "sdk");
    const firstPid = Number(await context.tools.call("sdk_pid", {}));
    expect(connection.pid).toBe(firstPid);
    await expect(context.tools.call("sdk_crash", {})).rejects.toThrow(
      /closed the connection during the call/,
    );
    await waitFor(
      () => connection.connections === 2 && connection.state === "connected",
      30_000,
      "a reconnection",
    );
    const secondPid = Number(await context.tools.call("sdk_pid", {}));
    expect(secondPid).not.toBe(firstPid);
    expect(isAlive(firstPid)).toBe(false);
    expect(await context.tools.call("sdk_greet", { name: "back" })).toBe("hello back");
  }, 60_000);

  it("closes the child process when the context stops", async () => {
    const context = await startWith(stdioServer());
    const connection = mcpConnectionOf(context, "sdk");
    const pid = connection.pid as number;
    expect(isAlive(pid)).toBe(true);
    await context.stop();
    await waitFor(() => !isAlive(pid), 10_000, "the server process to exit");
    expect(context.tools.has("sdk_greet")).toBe(false);
    expect(connection.state).toBe("stopped");
  }, 60_000);
});

describe("mcpTools over Streamable HTTP (the SDK's McpServer in a child process)", () => {
  it("registers and calls the tools, cancels, and re-registers on list_changed", async () => {
    const { child, url } = await spawnHttpChild(
      process.execPath,
      tsxCommand(SDK_SERVER, ["--http", "0"]).args,
    );
    try {
      const context = await startWith({ url, callTimeoutMs: 5_000 });
      expect(await context.tools.call("sdk_greet", { name: "web" })).toBe("hello web");
      expect(await context.tools.call("sdk_weather", { city: "Lima" })).toEqual({
        city: "Lima",
        temperature: 21,
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("caller gave up")), 100);
      await expect(
        context.tools.call("sdk_sleep", { ms: 10_000 }, { signal: controller.signal }),
      ).rejects.toThrow();
      expect(await context.tools.call("sdk_toggle", {})).toBe("added");
      await waitFor(() => context.tools.has("sdk_extra"), 10_000, "sdk_extra over HTTP");
      await context.stop();
    } finally {
      await killChild(child);
    }
  }, 60_000);

  it("reconnects when the HTTP server is restarted on the same port", async () => {
    const first = await spawnHttpChild(process.execPath, tsxCommand(SDK_SERVER, ["--http", "0"]).args);
    const port = new URL(first.url).port;
    let second: Awaited<ReturnType<typeof spawnHttpChild>> | undefined;
    try {
      const context = await startWith({
        url: first.url,
        reconnect: { initialDelayMs: 100, maxDelayMs: 1_000 },
      });
      const connection = mcpConnectionOf(context, "sdk");
      expect(await context.tools.call("sdk_greet", { name: "one" })).toBe("hello one");
      await killChild(first.child, "SIGKILL");
      await expect(context.tools.call("sdk_greet", { name: "gone" })).rejects.toThrow();
      second = await spawnHttpChild(process.execPath, tsxCommand(SDK_SERVER, ["--http", port]).args);
      await waitFor(
        () => connection.state === "connected" && connection.connections >= 2,
        30_000,
        "a reconnection",
      );
      expect(await context.tools.call("sdk_greet", { name: "two" })).toBe("hello two");
      await context.stop();
    } finally {
      await killChild(first.child);
      if (second !== undefined) await killChild(second.child);
    }
  }, 90_000);
});
