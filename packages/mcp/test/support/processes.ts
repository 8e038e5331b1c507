import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The package's folder: children run there, so `--import tsx` resolves as in the workspace. */
export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
/** The routekit-mcp command, as an MCP host would start it. */
export const BIN = fileURLToPath(new URL("../../bin/routekit-mcp.js", import.meta.url));
export const TOOL_ROUTES = fileURLToPath(new URL("../fixtures/tool-routes.ts", import.meta.url));
export const SILENT_SERVER = fileURLToPath(new URL("../fixtures/silent-server.mjs", import.meta.url));
export const SDK_SERVER = fileURLToPath(new URL("../fixtures/sdk-server.ts", import.meta.url));

/** `node --import tsx SCRIPT ...args`: a TypeScript script as a child process. */
export function tsxCommand(
  script: string,
  args: readonly string[] = [],
): { command: string; args: string[] } {
  return { command: process.execPath, args: ["--import", "tsx", script, ...args] };
}

/** True while a process with this id exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Resolves once `check` is true, polling every 20 ms; rejects after `timeoutMs`. */
export async function waitFor(
  check: () => boolean,
  timeoutMs = 10_000,
  what = "the condition",
): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Starts a child that prints a URL (a line with "http://") on stdout or stderr and resolves with
 * it; kills the child when it exits first or does not print one within `timeoutMs`.
 */
export function spawnHttpChild(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no URL printed within ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        child.stderr?.off("data", onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({ child, url: match[1] });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the child exited (${code}) before printing a URL: ${output}`));
    });
  });
}

/** Kills a child and resolves once it has exited. */
export async function killChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}
