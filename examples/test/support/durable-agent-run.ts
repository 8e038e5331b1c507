import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/** Runs the kill-and-resume program and checks what it printed; the soak variant runs more. */
export async function runDurableAgent(options: {
  store: "postgres" | "redis";
  runs: number;
  rounds: number;
}) {
  const args = ["--store", options.store, "--runs", String(options.runs), "--rounds", String(options.rounds)];
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "examples/durable-agent/main.ts", ...args],
    { cwd: root, timeout: 170_000 + options.runs * 6000 },
  ).catch((error: { stdout?: string; message: string }) => {
    // The counts say what went wrong: show them with the failure.
    throw new Error(`${error.message}\n${error.stdout ?? ""}`);
  });
  console.log(stdout);
  const denied = Math.floor((options.runs + 1) / 5);
  expect(stdout).toContain(`workers killed: ${options.rounds * 5} of ${options.rounds * 5}`);
  expect(stdout).toContain(`runs completed: ${options.runs} of ${options.runs}`);
  expect(stdout).toMatch(
    new RegExp(`model turns: ${options.runs * 3} of ${options.runs * 3}; sent twice: \\d+`),
  );
  expect(stdout).toContain("checkpointed turns sent again: 0");
  expect(stdout).toContain("turns sent again while their sender lived: 0");
  expect(stdout).toContain(`denied: ${denied}`);
  const charges = options.runs * 2 - denied;
  expect(stdout).toContain(`charges made: ${charges} of ${charges}; made more than once: 0`);
  expect(stdout).toContain("requests without an Idempotency-Key: 0");
  expect(stdout).toContain("every run survived its crash, no charge twice: yes");
}
