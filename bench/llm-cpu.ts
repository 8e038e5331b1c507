import { handWrittenAgent, postWithUndici, routekitAgent, startServer } from "./llm.js";

// The llm bench's routekit agent and hand-written undici loop timed in CPU time (process.cpuUsage,
// one process, the loopback model server included on both sides), 20 alternating rounds of 150
// runs after 2 warm-up rounds: a machine loaded by other work stretches wall-clock time, much
// less the CPU time each side uses. Run: pnpm exec tsx bench/llm-cpu.ts

const RUNS = 150;
const ROUNDS = 20;
const WARMUPS = 2;

const tally = { answeredTurns: 0, problems: [] as string[] };
const { server, baseURL } = await startServer(tally);
const routekit = await routekitAgent(baseURL, { count: 0 });
const loop = handWrittenAgent(baseURL, { count: 0 }, postWithUndici);

/** CPU nanoseconds per run of `run`, over `RUNS` runs. */
async function cpuPerRun(run: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let index = 0; index < RUNS; index++) await run();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / RUNS;
}

const routed: number[] = [];
const baseline: number[] = [];
for (let round = 0; round < WARMUPS + ROUNDS; round++) {
  const order = round % 2 === 0 ? ["routekit", "loop"] : ["loop", "routekit"];
  for (const side of order) {
    const ns = await cpuPerRun(side === "routekit" ? routekit.run : loop);
    if (round < WARMUPS) continue;
    (side === "routekit" ? routed : baseline).push(ns);
  }
}
if (tally.problems.length > 0)
  throw new Error(`tool calls unanswered: ${tally.problems.slice(0, 3).join("; ")}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const spread = (values: number[]) => ((Math.max(...values) - Math.min(...values)) / median(values)) * 100;
const describe = (values: number[]) =>
  `${(median(values) / 1000).toFixed(0)} µs ±${spread(values).toFixed(0)}% (fastest ${(Math.min(...values) / 1000).toFixed(0)} µs)`;
console.log(
  `llm agent run, CPU time per run: routekit llm: step ${describe(routed)} | hand-written undici loop ${describe(baseline)} | ` +
    `ratio ${(median(routed) / median(baseline)).toFixed(2)} (fastest runs ${(Math.min(...routed) / Math.min(...baseline)).toFixed(2)}) | target ≤ 1.6×`,
);
await routekit.stop();
server.closeAllConnections();
server.close();
