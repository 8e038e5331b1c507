import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { servicesMissing } from "@routekit/test-support";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

const skip = await servicesMissing(["RabbitMQ"]);

describe.skipIf(skip)("examples/amqp-enrichment", () => {
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
