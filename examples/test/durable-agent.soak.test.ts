import { missingServices } from "@routekit/test-support";
import { describe, it } from "vitest";
import { runDurableAgent } from "./support/durable-agent-run.js";

// The kill test at the size: 50 runs of 3 turns with 2 tool calls each, a worker killed
// at each of the five boundaries twice over, on PostgreSQL and then with the runs on Redis.
// Several minutes each: it runs with ROUTEKIT_SOAK=1 (the soak set), not in the normal suite,
// which runs the same program with 12 runs (durable-agent.test.ts).
const soak = process.env.ROUTEKIT_SOAK === "1";
const missing = soak ? await missingServices(["RabbitMQ", "PostgreSQL", "Redis"]) : [];
if (missing.length > 0) console.warn(`examples/durable-agent soak: skipped, no ${missing.join(", ")}`);

describe.runIf(soak && missing.length === 0)("examples/durable-agent at full size", () => {
  it("50 runs on PostgreSQL, ten kills: every run completes, no checkpointed turn again, no charge twice", async () => {
    await runDurableAgent({ store: "postgres", runs: 50, rounds: 2 });
  }, 900_000);

  it("50 runs on Redis, ten kills: every run completes, no checkpointed turn again, no charge twice", async () => {
    await runDurableAgent({ store: "redis", runs: 50, rounds: 2 });
  }, 900_000);
});
