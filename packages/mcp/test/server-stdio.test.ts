// The official SDK's Client against routekit's server over stdio: a child process started with the
// routekit-mcp command, as an MCP host (Claude Desktop, an IDE) would start it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, isAlive, PACKAGE_DIR, TOOL_ROUTES, waitFor } from "./support/processes.js";

async function connect(extraArgs: readonly string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "serve", TOOL_ROUTES, ...extraArgs],
    cwd: PACKAGE_DIR,
    stderr: "ignore",
  });
  const client = new Client({ name: "sdk-client", version: "1.0.0" });
  await client.connect(transport, { timeout: 60_000 });
  return { client, transport };
}

const text = (result: unknown) =>
  ((result as { content?: Array<{ text?: string }> }).content ?? [])
    .map((block) => block.text ?? "")
    .join("");

describe("routekit-mcp serve over stdio, with the SDK's Client", () => {
  let client: Client;
  let transport: StdioClientTransport;
  const listChanged: number[] = [];

  beforeAll(async () => {
    ({ client, transport } = await connect());
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged.push(Date.now());
    });
  }, 60_000);

  afterAll(async () => {
    const pid = transport.pid;
    await client.close();
    if (pid !== null) await waitFor(() => !isAlive(pid), 10_000, "the server process to exit");
  });

  it("lists only the allowed tools, with descriptions, input schemas and output schemas", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(["add", "echo", "fail", "slow", "progress", "burst", "aborts", "grow"]);
    expect(names).not.toContain("hidden");
    const echo = tools.find((tool) => tool.name === "echo");
    expect(echo?.description).toBe("Echoes a text.");
    expect(echo?.inputSchema).toMatchObject({ type: "object", required: ["text"] });
    expect(echo?.outputSchema).toBeUndefined();
    expect(tools.find((tool) => tool.name === "add")?.outputSchema).toMatchObject({
      type: "object",
      required: ["sum"],
    });
  });

  it("calls a route tool and a native tool with an output schema (structuredContent)", async () => {
    expect(text(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("echo: hi");
    const added = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(added.isError).toBeFalsy();
    expect(added.structuredContent).toEqual({ sum: 5 });
  });

  it("answers schema-invalid arguments with an isError result naming the path", async () => {
    const result = await client.callTool({ name: "echo", arguments: { text: 42 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("invalid arguments for tool 'echo': /text must be string");
    const missing = await client.callTool({ name: "add", arguments: { a: 1 } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("must have required property 'b'");
  });

  it("turns a throwing route into an isError result with a message and no stack", async () => {
    const result = await client.callTool({ name: "fail", arguments: {} });
    expect(result.isError).toBe(true);
    const message = text(result);
    expect(message).toContain("refused the login");
    expect(message).not.toMatch(/\bat .+:\d+:\d+/);
    expect(message).not.toContain("10.1.2.3");
    expect(message).not.toContain("/srv/app");
  });

  it("answers an unknown or unexposed tool with a JSON-RPC error", async () => {
    await expect(client.callTool({ name: "hidden", arguments: {} })).rejects.toThrow(/unknown tool 'hidden'/);
    await expect(client.callTool({ name: "ecko", arguments: {} })).rejects.toThrow(/did you mean 'echo'/);
  });

  it("bounds a call by the server's tool timeout and aborts the route's signal", async () => {
    const before = JSON.parse(text(await client.callTool({ name: "aborts", arguments: {} }))).aborted;
    const started = Date.now();
    const result = await client.callTool({ name: "slow", arguments: { ms: 30_000 } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("tool 'slow' timed out after 2000 ms");
    const after = JSON.parse(text(await client.callTool({ name: "aborts", arguments: {} })));
    expect(after.aborted).toBe(before + 1);
  });

  it("aborts the route's signal when the client cancels (notifications/cancelled)", async () => {
    const before = JSON.parse(text(await client.callTool({ name: "aborts", arguments: {} }))).aborted;
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: { ms: 30_000 } }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("user cancelled")), 200);
    await expect(call).rejects.toThrow(/user cancelled/);
    let after = before;
    for (let attempt = 0; attempt < 50 && after === before; attempt++) {
      after = JSON.parse(text(await client.callTool({ name: "aborts", arguments: {} }))).aborted;
      if (after === before) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(after).toBe(before + 1);
  });

  it("sends progress notifications a step reports", async () => {
    const updates: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await client.callTool({ name: "progress", arguments: {} }, undefined, {
      onprogress: (update) => updates.push(update),
    });
    expect(text(result)).toBe("progress done");
    expect(updates).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
  });

  it("gets every progress notification to the client before the result, when a route ends at once", async () => {
    // The notifications and the result leave within one turn and reach the client in one read.
    for (let call = 0; call < 20; call++) {
      const updates: number[] = [];
      const result = await client.callTool({ name: "burst", arguments: {} }, undefined, {
        onprogress: (update) => updates.push(update.progress),
      });
      expect(text(result)).toBe("burst done");
      expect(updates).toEqual([1, 2, 3]);
    }
  });

  it("sends notifications/tools/list_changed when a route adds an exposed tool", async () => {
    const seen = listChanged.length;
    expect(text(await client.callTool({ name: "grow", arguments: {} }))).toBe("grown");
    await waitFor(() => listChanged.length > seen, 5_000, "notifications/tools/list_changed");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("late_tool");
    expect(text(await client.callTool({ name: "late_tool", arguments: {} }))).toBe("late");
  });
});

describe("routekit-mcp serve over stdio: clients that go away", () => {
  it("aborts an in-flight call and exits when the client disconnects mid-call", async () => {
    const { client, transport } = await connect();
    const pid = transport.pid as number;
    expect(isAlive(pid)).toBe(true);
    const call = client.callTool({ name: "slow", arguments: { ms: 60_000 } }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.close();
    // The server ends the call when stdin closes and answers it while the client waits for the
    // process to exit; a client that stops reading sooner sees the connection close instead.
    const outcome = await call;
    if (!(outcome instanceof Error)) {
      expect(outcome.isError).toBe(true);
      expect(text(outcome)).toBe("tool 'slow' was cancelled: the MCP server is closing");
    }
    await waitFor(() => !isAlive(pid), 10_000, "the server process to exit");
  }, 60_000);

  it("refuses an oversized argument: past the schema an isError result, past the message limit a closed connection", async () => {
    const { client, transport } = await connect();
    const pid = transport.pid as number;
    const long = await client.callTool({ name: "echo", arguments: { text: "x".repeat(200_000) } });
    expect(long.isError).toBe(true);
    expect(text(long)).toContain("/text must NOT have more than 100000 characters");
    // Over 4 MiB the server cannot skip the rest of the line safely: it ends the connection and exits.
    await expect(
      client.callTool({ name: "echo", arguments: { text: "x".repeat(5 * 1024 * 1024) } }),
    ).rejects.toThrow(/Connection closed/);
    await waitFor(() => !isAlive(pid), 10_000, "the server process to exit");
    await client.close();
  }, 60_000);

  it("serves only the tools --tools names (over the module's own list)", async () => {
    const { client } = await connect(["--tools", "echo"]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["echo"]);
    await client.close();
  }, 60_000);
});
