import { servicesMissing } from "@routekit/test-support";
import { describe, it } from "vitest";
import { runDurableAgent } from "./support/durable-agent-run.js";

// The kill test at the size: 50 runs of 3 turns with 2 tool calls each, a worker killed
// at each of the five boundaries twice over, on PostgreSQL and then with the runs on Redis. A
// minute or more each: it belongs to the soak set (`pnpm test:soak`, which CI runs), while the
// normal suite runs the same program with 12 runs (durable-agent.test.ts).
const skip = await servicesMissing(["RabbitMQ", "PostgreSQL", "Redis"]);

describe.skipIf(skip)("examples/durable-agent at full size", () => {
  it("50 runs on PostgreSQL, ten kills: every run completes, no turn sent again while its sender lived, no charge twice", async () => {
    await runDurableAgent({ store: "postgres", runs: 50, rounds: 2 });
  }, 900_000);

  it("50 runs on Redis, ten kills: every run completes, no turn sent again while its sender lived, no charge twice", async () => {
    await runDurableAgent({ store: "redis", runs: 50, rounds: 2 });
  }, 900_000);
});
