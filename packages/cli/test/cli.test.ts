import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageRoot, type RunningCommand, runInProcess, startCommand } from "./support/run-command.js";

/** Runs the calls one after the other (they share this process's stdout and stderr). */
async function sequence<const TCalls extends ReadonlyArray<() => Promise<unknown>>>(
  calls: TCalls,
): Promise<{ -readonly [K in keyof TCalls]: Awaited<ReturnType<TCalls[K]>> }> {
  const results: unknown[] = [];
  for (const call of calls) results.push(await call());
  return results as { -readonly [K in keyof TCalls]: Awaited<ReturnType<TCalls[K]>> };
}

const greeting = "test/fixtures/greeting-routes.ts";
const greetingPath = join(packageRoot, greeting);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

async function get(url: string): Promise<string> {
  const response = await fetch(url);
  return `${response.status} ${await response.text()}`;
}

const running: RunningCommand[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const command of running.splice(0)) {
    if (command.child.exitCode === null) command.child.kill("SIGKILL");
    await command.exited;
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// These run the command in this process (`main`); `routekit run` below runs it as a process of its own.
describe("routekit describe and tools", { timeout: 120_000 }, () => {
  it("prints the routes as text, JSON and Mermaid", async () => {
    const [text, json, mermaid] = await sequence([
      () => runInProcess(["describe", greetingPath]),
      () => runInProcess(["routes", greetingPath, "--format", "json"]),
      () => runInProcess(["describe", greetingPath, "--format=mermaid"]),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("route greet (tool greet)\n  from direct:greet\n");
    expect(text.stdout).toContain("front -> greet  via direct:greet");
    expect(JSON.parse(json.stdout).routes.map((route: { id: string }) => route.id)).toEqual([
      "greet",
      "front",
    ]);
    expect(mermaid.stdout).toBe(
      'flowchart LR\n  r0["greet<br/>direct:greet"]\n  r1["front<br/>direct:front"]\n  r1 -->|"direct:greet"| r0\n',
    );
  });

  it("lists and calls tools, printing the output or the error a model would read", async () => {
    const [list, call, invalid, unknown] = await sequence([
      () => runInProcess(["tools", "list", greetingPath]),
      () => runInProcess(["tools", "call", greetingPath, "greet", "--args", '{"name":"Ada"}']),
      () => runInProcess(["tools", "call", greetingPath, "greet", "--args", '{"nam":"Ada"}']),
      () => runInProcess(["tools", "call", greetingPath, "gret"]),
    ]);
    expect(list.stdout).toContain("greet (route): Greets someone by name.");
    expect(call).toMatchObject({ code: 0, stdout: "hello Ada\n" });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("must have required property 'name'");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown tool 'gret' (did you mean 'greet'?); known tools: greet");
  });

  it("says what is wrong with a command line, and where a routes module fails", async () => {
    expect((await runInProcess(["rn", greetingPath])).stderr).toContain(
      "unknown command 'rn' (did you mean 'run'?)",
    );
    expect((await runInProcess(["describe", greetingPath, "--formt", "json"])).stderr).toContain(
      "unknown option --formt (did you mean 'format'?)",
    );
    expect((await runInProcess(["describe", greetingPath, "--format", "yaml"])).stderr).toContain(
      "--format expects one of text, json, mermaid",
    );
    expect((await runInProcess(["tools", "call", greetingPath, "greet", "--args", "{"])).stderr).toContain(
      "--args expects a JSON object",
    );
    const missing = await runInProcess(["describe", "test/fixtures/none.ts"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot load routes module test/fixtures/none.ts");
    expect((await runInProcess(["mcp", "--help"])).stderr).toContain("Usage: routekit-mcp serve");
    expect((await runInProcess(["--help"])).stdout).toContain("Usage: routekit <command>");
  });
});

describe("routekit run", { timeout: 120_000 }, () => {
  it("runs the routes until SIGTERM and stops gracefully, finishing the exchange in flight", async () => {
    const port = await freePort();
    const command = startCommand(["run", "test/fixtures/http-routes.ts"], {
      ROUTEKIT_TEST_PORT: String(port),
    });
    running.push(command);
    await command.waitFor(/running 2 routes/);
    expect(await get(`http://127.0.0.1:${port}/version`)).toBe("200 v1");
    const slow = get(`http://127.0.0.1:${port}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    command.child.kill("SIGTERM");
    expect(await slow).toBe("200 slow v1");
    expect(await command.exited).toBe(0);
    expect(command.output()).toContain("stopped; 1 exchange in flight finished");
  });

  it("--watch reloads on change: in-flight exchanges finish, a broken module keeps the old routes", async () => {
    const folder = mkdtempSync(join(packageRoot, "test", ".watch-"));
    folders.push(folder);
    const file = join(folder, "routes.ts");
    copyFileSync(join(packageRoot, "test/fixtures/http-routes.ts"), file);
    const port = await freePort();
    const command = startCommand(["run", file, "--watch"], { ROUTEKIT_TEST_PORT: String(port) });
    running.push(command);
    await command.waitFor(/watching /);
    expect(await get(`http://127.0.0.1:${port}/version`)).toBe("200 v1");

    // A request in flight when the file changes is answered by the routes it entered.
    const slow = get(`http://127.0.0.1:${port}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    writeFileSync(file, readFileSync(file, "utf8").replace('"v1"', '"v2"'));
    expect(await slow).toBe("200 slow v1");
    await command.waitFor(/reloaded/);
    // The old routes were stopped gracefully (the slow exchange may have finished before the new module loaded).
    expect(command.output()).toMatch(/stopped; \d+ exchanges? in flight finished/);
    expect(await get(`http://127.0.0.1:${port}/version`)).toBe("200 v2");

    // A syntax error: the running routes stay, and the message says where.
    writeFileSync(file, readFileSync(file, "utf8").replace("const VERSION", "const VERSION ="));
    await command.waitFor(/reload failed; the running routes stay/);
    expect(command.output()).toMatch(/routes\.ts:\d+:\d+/);
    expect(await get(`http://127.0.0.1:${port}/version`)).toBe("200 v2");

    command.child.kill("SIGTERM");
    expect(await command.exited).toBe(0);
  });

  it("dev serves the console on loopback and prints its URL", async () => {
    const command = startCommand(["dev", greeting]);
    running.push(command);
    await command.waitFor(/console: http:\/\/127\.0\.0\.1:\d+\//);
    const url = /console: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(command.output())?.[1] as string;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    await page.text();
    command.child.kill("SIGTERM");
    expect(await command.exited).toBe(0);
  });
});
