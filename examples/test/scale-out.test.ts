import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { servicesMissing } from "@routekit/test-support";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

const skip = await servicesMissing(["RabbitMQ", "Redis", "PostgreSQL"]);

describe.skipIf(skip)("examples/scale-out", () => {
  it("hands every order downstream once with each part once although a worker is killed mid-run, then exits 0", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/scale-out/main.ts"],
      { cwd: root, timeout: 170_000 },
    );
    expect(stdout).toMatch(/worker-1 killed \(SIGKILL\) after \d+ of 60 orders had completed/);
    expect(stdout).toContain("orders completed: 60 of 60; completed more than once: 0");
    expect(stdout).toContain("parts in completed orders: 300 of 300; in more than one: 0; lost: 0");
    // Completions reach the results queue at least once; the results consumer drops re-sent ones.
    const [, deliveries, dropped] =
      /result messages: (\d+); re-sent completions dropped by completion id: (\d+)/.exec(stdout) ?? [];
    expect(Number(deliveries) - Number(dropped)).toBe(60);
    expect(stdout).toContain(
      "at least once to the results queue, once downstream (deduplicated by completion id): yes",
    );
    expect(stdout).not.toContain("exactly once");
  }, 180_000);
});
