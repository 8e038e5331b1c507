import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createContext, type RouteContext } from "@routekit/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runAllowedProgram, type ShellResult, type ShellToolOptions } from "./shell-tool.js";

let directory: string;
let context: RouteContext | undefined;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "routekit-shell-test-"));
  await writeFile(join(directory, "a.txt"), "one\ntwo\n");
});
afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  context = undefined;
  await rm(directory, { recursive: true, force: true });
});

async function shell(options: Omit<ShellToolOptions, "workingDirectory">): Promise<RouteContext> {
  context = createContext({ logLevel: "error" });
  await context.addRoutes((r) => {
    r.from("direct:shell").process(runAllowedProgram({ ...options, workingDirectory: directory }));
  });
  await context.start();
  return context;
}

describe("the http-shell example's shell tool", () => {
  it("runs an allowed program in the pinned directory", async () => {
    const running = await shell({ allowedPrograms: ["wc"] });
    const result = await running.request<ShellResult>("direct:shell", {
      program: "wc",
      args: ["-l", "a.txt"],
    });
    expect(result).toMatchObject({ exitCode: 0, truncated: false, timedOut: false });
    expect(result.stdout.trim()).toBe("2 a.txt");
  });

  it("refuses a program that is not allowed and arguments that leave the directory", async () => {
    const running = await shell({ allowedPrograms: ["wc"] });
    await expect(running.request("direct:shell", { program: "rm", args: ["a.txt"] })).rejects.toThrow(
      "program 'rm' is not allowed; allowed: wc",
    );
    await expect(running.request("direct:shell", { program: "wc", args: ["../secret"] })).rejects.toThrow(
      "argument '../secret' leaves the working directory",
    );
    await expect(running.request("direct:shell", { program: "wc", args: ["/etc/hostname"] })).rejects.toThrow(
      "argument '/etc/hostname' leaves the working directory",
    );
  });

  it("passes arguments as a list, never through a shell", async () => {
    const running = await shell({ allowedPrograms: ["wc"] });
    const result = await running.request<ShellResult>("direct:shell", {
      program: "wc",
      args: ["-l", "a.txt; touch pwned"],
    });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain("a.txt; touch pwned");
  });

  it("caps the output and kills a program past its timeout", async () => {
    const capped = await shell({ allowedPrograms: ["wc"], maxOutputBytes: 3 });
    const big = await capped.request<ShellResult>("direct:shell", { program: "wc", args: ["-l", "a.txt"] });
    expect(big.truncated).toBe(true);
    expect(big.stdout.length).toBeLessThanOrEqual(3);
    await capped.stop();
    const slow = await shell({ allowedPrograms: ["sleep"], timeoutMs: 100 });
    const result = await slow.request<ShellResult>("direct:shell", { program: "sleep", args: ["10"] });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
  });
});
