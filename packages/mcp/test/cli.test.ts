// The routekit-mcp command line: argument parsing, and a JavaScript routes module served over stdio.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { parseArguments } from "../src/cli/parse-arguments.js";
import { BIN, PACKAGE_DIR } from "./support/processes.js";

const ROUTES_FUNCTION = fileURLToPath(new URL("./fixtures/routes-function.mjs", import.meta.url));

describe("parseArguments", () => {
  it("reads serve with its options", () => {
    expect(
      parseArguments([
        "serve",
        "./routes.ts",
        "--http",
        "127.0.0.1:3001",
        "--tools=a,b",
        "--token-env",
        "TOKEN",
        "--allow-origin",
        "http://localhost:6274",
        "--timeout",
        "5000",
      ]),
    ).toEqual({
      command: "serve",
      file: "./routes.ts",
      http: { host: "127.0.0.1", port: 3001 },
      tools: ["a", "b"],
      tokenEnv: "TOKEN",
      path: undefined,
      allowedOrigins: ["http://localhost:6274"],
      name: undefined,
      timeoutMs: 5000,
    });
    expect(parseArguments(["serve", "r.js", "--http", "3001", "--all-tools"])).toMatchObject({
      http: { host: "127.0.0.1", port: 3001 },
      tools: "all",
    });
    expect(parseArguments(["--help"])).toEqual({ command: "help" });
  });

  it("names what is wrong: an unknown option (with the nearest), a missing file, a bad address", () => {
    expect(() => parseArguments(["serve", "r.ts", "--tols", "a"])).toThrow(
      /unknown option '--tols' \(did you mean '--tools'\?\)/,
    );
    expect(() => parseArguments(["serve"])).toThrow(/serve needs a routes file/);
    expect(() => parseArguments(["serv", "r.ts"])).toThrow(
      /unknown command 'serv' \(did you mean 'serve'\?\)/,
    );
    expect(() => parseArguments(["serve", "r.ts", "--http", "localhost"])).toThrow(
      /--http expects HOST:PORT/,
    );
    expect(() => parseArguments(["serve", "r.ts", "--timeout", "soon"])).toThrow(
      /--timeout expects milliseconds/,
    );
  });
});

describe("routekit-mcp serve with a JavaScript routes function", () => {
  it("refuses to serve without an allowlist", async () => {
    const failure = await promisify(execFile)(process.execPath, [BIN, "serve", ROUTES_FUNCTION], {
      cwd: PACKAGE_DIR,
      timeout: 60_000,
    }).catch((error: { code?: number; stderr?: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain(
      "name the tools to expose: --tools a,b, --all-tools",
    );
  }, 60_000);

  it("refuses a tool name the routes do not define, with the nearest one, instead of serving fewer tools", async () => {
    const failure = await promisify(execFile)(
      process.execPath,
      [BIN, "serve", ROUTES_FUNCTION, "--tools", "helo,hello"],
      { cwd: PACKAGE_DIR, timeout: 60_000 },
    ).catch((error: { code?: number; stderr?: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain(
      "routekit-mcp: --tools: unknown tool 'helo' (did you mean 'hello'?); known tools: hello\n",
    );
  }, 60_000);

  it("serves the named tools", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "serve", ROUTES_FUNCTION, "--tools", "hello"],
      cwd: PACKAGE_DIR,
      stderr: "ignore",
    });
    const client = new Client({ name: "sdk-client", version: "1.0.0" });
    await client.connect(transport, { timeout: 60_000 });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["hello"]);
    const result = await client.callTool({ name: "hello", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "hello from a JavaScript module" }]);
    await client.close();
  }, 60_000);
});
