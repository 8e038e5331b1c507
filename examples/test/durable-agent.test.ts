import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { servicesMissing } from "@routekit/test-support";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

const skip = await servicesMissing(["RabbitMQ", "PostgreSQL"]);

describe.skipIf(skip)("examples/durable-agent", () => {
  it("completes every run once although workers are killed at each boundary, with no charge made twice", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/durable-agent/main.ts"],
      {
        cwd: root,
        timeout: 170_000,
      },
    );
    console.log(stdout);
    // Each of the four boundaries is killed once when a run reaches it while its worker lives; on
    // a loaded machine two can fall on one worker, and the second then finds no run left to wait for.
    expect(stdout).toMatch(/workers killed: [1-4] \(/);
    expect(stdout).toContain("runs completed: 20 of 20");
    expect(stdout).toMatch(/model turns: 60 of 60; sent twice: \d+; more than twice: 0/);
    expect(stdout).toContain("charges made: 40 of 40; made more than once: 0");
    expect(stdout).toContain("requests without an Idempotency-Key: 0");
    expect(stdout).toContain("every run survived its crash, no charge twice: yes");
  }, 180_000);
});
