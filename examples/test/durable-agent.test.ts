import { describe, it } from "vitest";
import { runDurableAgent } from "./support/durable-agent-run.js";
import { missingServices } from "./support/services.js";

const missing = await missingServices(["RabbitMQ", "PostgreSQL"]);
if (missing.length > 0 && process.env.CI !== "true") {
  console.warn(`examples/durable-agent: skipped, no ${missing.join(", ")}`);
}

describe.skipIf(missing.length > 0 && process.env.CI !== "true")("examples/durable-agent", () => {
  it("completes every run although a worker is killed at each boundary, parked included; no charge twice", async () => {
    await runDurableAgent({ store: "postgres", runs: 12, rounds: 1 });
  }, 260_000);
});
