import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createContext, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { runPipelineScenarios, type ScenarioOutcome } from "./support/pipeline-scenarios.js";

// A block's steps run in the shared loop until the pipeline is hot, then in a runner generated for
// it where the process allows code generation and the block is at most 128 steps long. Both must
// behave the same: which step runs, which is redelivered and blamed, what step events say.

/** More runs than a pipeline on its own needs to become hot (two windows of 1,024 runs). */
const WARM_RUNS = 2100;

/** Longer than the longest generated runner: this route runs in the loop. */
const LONG = 150;

const expected: ScenarioOutcome = {
  redelivered: [1, 2, 3, 3, 3, 4, 5],
  exhausted: "Route 'five' failed at step #3 process: Error: step 3 threw",
  observed: [
    "started #1 process",
    "completed #1 process",
    "started #2 process",
    "completed #2 process",
    "started #3 process",
    "completed #3 process",
  ],
  single: [2, "done after 2"],
  singleExhausted: "Route 'single' failed at step #1 process: Error: attempt 5 left an error",
  long: LONG,
  longRedelivered: LONG,
};

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

describe("pipeline runners", () => {
  it("run, redeliver, blame and report steps the same in a generated runner and in the loop", async () => {
    expect(await runPipelineScenarios(LONG)).toEqual(expected);
  });

  it("run, redeliver, blame and report steps the same once each route is hot (its generated runner)", async () => {
    expect(await runPipelineScenarios(LONG, WARM_RUNS)).toEqual(expected);
  });

  it("run the same where the process refuses code generation from strings", async () => {
    const child = fileURLToPath(new URL("./support/pipeline-scenarios-child.ts", import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--disallow-code-generation-from-strings", "--import", "tsx", child, String(LONG)],
      { timeout: 60_000 },
    );
    const reported = JSON.parse(stdout) as { codeGenerationRefused: boolean; outcome: ScenarioOutcome };
    expect(reported.codeGenerationRefused).toBe(true);
    expect(reported.outcome).toEqual(expected);
  });

  it("keeps route ids and step labels out of generated code: text that looks like code is just a name", async () => {
    const routeId = '"); throw new Error("injected"); (" */ `${process.exit(1)}`';
    context = createContext({ logLevel: "off" });
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .routeId(routeId)
        .process((exchange) => {
          exchange.body = `${exchange.body as string}!`;
        })
        .process(() => {
          throw new Error("second step");
        }),
    );
    await context.start();
    await expect(context.request("direct:in", "hi")).rejects.toThrow(
      `Route '${routeId}' failed at step #2 process: Error: second step`,
    );
  });
});
