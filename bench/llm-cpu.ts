import { handWrittenAgent, postWithUndici, routekitAgent } from "./llm.js";
import { startModelProcess } from "./llm-model.js";

// The llm bench's routekit agent and hand-written undici loop timed in CPU time (process.cpuUsage,
// of this process; the loopback model server runs in a child process) and in wall time, 30 alternating
// rounds of 150 runs after 3 warm-up rounds: a machine loaded by other work stretches wall-clock
// time, much less the CPU time each side uses. Beside each side's median it prints the median of
// the round-by-round ratios, in which drift between rounds cancels, with their interquartile range.
// Run: pnpm exec tsx bench/llm-cpu.ts

const RUNS = 150;
const ROUNDS = 30;
const WARMUPS = 3;

const model = await startModelProcess();
const baseURL = model.baseURL;
const routekit = await routekitAgent(baseURL, { count: 0 });
const loop = handWrittenAgent(baseURL, { count: 0 }, postWithUndici);

interface Sample {
  cpuNs: number;
  wallNs: number;
}

/** CPU and wall nanoseconds per run of `run`, over `RUNS` runs. */
async function timePerRun(run: () => Promise<unknown>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const wall = process.hrtime.bigint();
  for (let index = 0; index < RUNS; index++) await run();
  const wallNs = Number(process.hrtime.bigint() - wall) / RUNS;
  const used = process.cpuUsage(cpu);
  return { cpuNs: ((used.user + used.system) * 1000) / RUNS, wallNs };
}

const routed: Sample[] = [];
const baseline: Sample[] = [];
for (let round = 0; round < WARMUPS + ROUNDS; round++) {
  const order = round % 2 === 0 ? ["routekit", "loop"] : ["loop", "routekit"];
  for (const side of order) {
    const sample = await timePerRun(side === "routekit" ? routekit.run : loop);
    if (round < WARMUPS) continue;
    (side === "routekit" ? routed : baseline).push(sample);
  }
}
const tally = await model.tally();
if (tally.problems.length > 0)
  throw new Error(`tool calls unanswered: ${tally.problems.slice(0, 3).join("; ")}`);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const at = (values: number[], share: number) => sorted(values)[Math.floor((values.length - 1) * share)] ?? 0;
const median = (values: number[]) => at(values, 0.5);
const spread = (values: number[]) => ((Math.max(...values) - Math.min(...values)) / median(values)) * 100;
const describe = (values: number[]) =>
  `${(median(values) / 1000).toFixed(0)} µs ±${spread(values).toFixed(0)}% (fastest ${(Math.min(...values) / 1000).toFixed(0)} µs)`;
for (const clock of ["cpuNs", "wallNs"] as const) {
  const subject = routed.map((sample) => sample[clock]);
  const loopTimes = baseline.map((sample) => sample[clock]);
  const ratios = subject.map((value, index) => value / (loopTimes[index] ?? value));
  console.log(
    `llm agent run, ${clock === "cpuNs" ? "CPU" : "wall"} time per run: routekit llm: step ${describe(subject)} | ` +
      `hand-written undici loop ${describe(loopTimes)} | ratio of medians ${(median(subject) / median(loopTimes)).toFixed(2)}, ` +
      `round by round ${median(ratios).toFixed(2)} (IQR ${at(ratios, 0.25).toFixed(2)}–${at(ratios, 0.75).toFixed(2)}) | target ≤ 1.2× CPU`,
  );
}
await routekit.stop();
model.stop();
