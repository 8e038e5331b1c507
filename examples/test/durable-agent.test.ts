import { servicesMissing } from "@routekit/test-support";
import { describe, it } from "vitest";
import { runDurableAgent } from "./support/durable-agent-run.js";

const skip = await servicesMissing(["RabbitMQ", "PostgreSQL"]);

describe.skipIf(skip)("examples/durable-agent", () => {
  it("completes every run although a worker is killed at each boundary, parked included; no charge twice", async () => {
    await runDurableAgent({ store: "postgres", runs: 12, rounds: 1 });
  }, 260_000);
});
