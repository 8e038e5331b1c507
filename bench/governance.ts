// Spend and quota governance on the llm agent run: the same 3-tool agent (2 model turns) with
// token and cost budgets, a price table with per-route and per-tenant accounting, and the
// in-memory provider quota, against the same run without them. Rounds alternate the sides.
// Usage: tsx bench/governance.ts [--quick]
import { pathToFileURL } from "node:url";
import { llmSpendOf, providerQuota } from "@routekit/llm";
import { type BenchOptions, type BenchRow, printRow, rowOf, sampleAll, summarise } from "./harness.js";
import { FINAL_TEXT, MODEL, routekitAgent, startServer } from "./llm.js";

/** The warm-up rounds `sampleAll` runs first (its default). */
const WARMUP_ROUNDS = 2;

export async function runGovernanceBench(options: BenchOptions): Promise<BenchRow[]> {
  const { server, baseURL } = await startServer({ answeredTurns: 0, problems: [] });
  const plainCount = { count: 0 };
  const governedCount = { count: 0 };
  // The same request (with the tenant header) on both sides: only the governance differs.
  const plain = await routekitAgent(baseURL, plainCount, { headers: { "x-tenant": "acme" } });
  const governed = await routekitAgent(baseURL, governedCount, {
    plugin: {
      prices: { [`openai/${MODEL}`]: { inputPerMillion: 0.15, outputPerMillion: 0.6 } },
      tenantHeader: "x-tenant",
      // Far above what the bench sends: every call takes from the buckets, none waits.
      quota: providerQuota({ requestsPerMinute: 100_000_000, tokensPerMinute: 1_000_000_000 }),
    },
    step: (step) => step.maxTotalTokens(1_000_000).maxOutputTokens(100_000).maxCostUsd(1000),
    headers: { "x-tenant": "acme" },
  });
  // CPU time of each side's rounds (this process: the agent, its tools and the loopback model
  // alike), less swayed than wall time by other work on a loaded machine.
  const cpuMicros = { governed: 0, plain: 0, runs: 0 };
  const calls = { governed: 0, plain: 0 };
  const operation =
    (run: () => Promise<unknown>, side: "governed" | "plain") => async (iterations: number) => {
      // The first calls of each side are the harness's warm-up rounds: not counted.
      const counted = ++calls[side] > WARMUP_ROUNDS;
      const started = process.cpuUsage();
      for (let index = 0; index < iterations; index++) {
        const text = await run();
        if (text !== FINAL_TEXT) throw new Error(`the agent answered ${JSON.stringify(text)}`);
      }
      if (!counted) return;
      const used = process.cpuUsage(started);
      cpuMicros[side] += used.user + used.system;
      if (side === "plain") cpuMicros.runs += iterations;
    };
  try {
    // Rounds of a few hundred runs (a quarter of a second or more): with 30–100 runs a round
    // lasted 15–50 ms and the spreads reached ±350%.
    const iterations = options.quick ? 150 : 300;
    const samples = await sampleAll(
      [operation(governed.run, "governed"), operation(plain.run, "plain")],
      iterations,
      options.quick ? 6 : 16,
    );
    const [withGovernance, without] = samples.map(summarise);
    if (withGovernance === undefined || without === undefined) throw new Error("missing stats");
    const spend = llmSpendOf(governed.context).tenant("acme");
    if (spend === undefined || !(spend.costUsd > 0)) throw new Error("the governed runs recorded no cost");
    const baseSamples = samples[1] ?? [];
    const roundRatios = (samples[0] ?? []).map((ns, round) => ns / (baseSamples[round] ?? ns));
    const roundRatio = summarise(roundRatios.length > 0 ? roundRatios : [Number.NaN]);
    return [
      rowOf(
        {
          benchmark:
            "llm agent run with budgets, cost accounting and provider quota (3 tool calls, 2 model turns)",
          subject:
            "llm: step with maxTotalTokens, maxOutputTokens, maxCostUsd, prices, tenantHeader, in-memory providerQuota",
          baseline: "the same llm: step without them",
          baselineDescription: "the same agent run, same loopback server, no budgets, prices or quota",
          subjectStats: withGovernance,
          baselineStats: without,
          target: "≤ 1.05× the run without them",
          note:
            `${spend.runs} governed runs recorded under tenant 'acme' ($${spend.costUsd.toFixed(4)}); round by round ${roundRatio.medianNs.toFixed(3)}× (${roundRatio.minNs.toFixed(3)}–${roundRatio.maxNs.toFixed(3)}); ` +
            `CPU time per run ${(cpuMicros.governed / cpuMicros.runs).toFixed(0)} µs vs ${(cpuMicros.plain / cpuMicros.runs).toFixed(0)} µs (${(cpuMicros.governed / cpuMicros.plain).toFixed(3)}×)`,
        },
        (ratio) => ratio <= 1.05,
      ),
    ];
  } finally {
    await governed.stop();
    await plain.stop();
    server.closeAllConnections();
    server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const rows = await runGovernanceBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
