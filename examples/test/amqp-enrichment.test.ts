import { execFile } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** True when something accepts connections on RabbitMQ's port on this machine. */
function brokerListening(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port: 5672 });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const available = await brokerListening();
if (!available && process.env.CI !== "true") {
  console.warn(
    "examples/amqp-enrichment: skipped, no RabbitMQ on 127.0.0.1:5672 (start one with: rabbitmq-server -detached)",
  );
}

describe.skipIf(!available && process.env.CI !== "true")("examples/amqp-enrichment", () => {
  it("fetches, queries and republishes every URL through RabbitMQ, then exits 0", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/amqp-enrichment/main.ts"],
      { cwd: root, timeout: 45_000 },
    );
    expect(stdout).toContain('enriched {"title":"Enterprise Integration Patterns","year":2003}');
    expect(stdout).toContain('enriched {"title":"Camel in Action","year":2018}');
    expect(stdout).toContain('enriched {"title":"Designing Data-Intensive Applications","year":2017}');
    expect(stdout).toContain("all three URLs were fetched, queried and published");
  }, 60_000);
});
