import { type Budget, createBudget, defineBudgetTask } from "@routekit/core";
import { type BenchOptions, type BenchRow, printRow, type Stats, summarise } from "./harness.js";

const tasks = new URL("./budget-fairness-tasks.js", import.meta.url);
const trivial = defineBudgetTask<{ text: string }, string>(tasks, "trivial");
const spin = defineBudgetTask<undefined, never>(tasks, "spin");

/** How often the hostile caller sends an input that runs until the deadline (two a second). */
const HOSTILE_EVERY_MS = 500;
/** How often the victim calls (100 a second), on a fixed schedule. */
const VICTIM_EVERY_MS = 10;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The 99th percentile of latencies, in nanoseconds. */
function p99(latenciesNs: number[]): number {
  const sorted = [...latenciesNs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
}

interface Phase {
  p99Ns: number;
  calls: number;
  failures: number;
  firstFailure: string | undefined;
  hostileSent: number;
}

/** One phase: the victim calls for `durationMs`, with or without the hostile caller beside it. */
async function phase(budget: Budget, durationMs: number, hostile: boolean): Promise<Phase> {
  const hostileJobs: Promise<unknown>[] = [];
  const sendHostile = () => {
    hostileJobs.push(budget.run(spin, undefined, { lane: "hostile" }).catch(() => undefined));
  };
  let timer: NodeJS.Timeout | undefined;
  if (hostile) {
    sendHostile();
    timer = setInterval(sendHostile, HOSTILE_EVERY_MS);
  }
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  const calls: Promise<void>[] = [];
  const startAt = performance.now();
  try {
    // Open loop: a call every VICTIM_EVERY_MS whatever the earlier ones do, each timed from when it
    // was due, so a stall counts for every call it delays (not once, as a caller awaiting each would).
    for (let index = 0; index * VICTIM_EVERY_MS < durationMs; index++) {
      const dueAt = startAt + index * VICTIM_EVERY_MS;
      const wait = dueAt - performance.now();
      if (wait > 0) await pause(wait);
      const call = budget.run(trivial, { text: `call ${index}` }, { lane: "victim" });
      calls.push(
        call.then(
          () => {
            latencies.push((performance.now() - dueAt) * 1e6);
          },
          (error: unknown) => {
            firstFailure ??= error instanceof Error ? error.message : String(error);
            failures++;
            latencies.push((performance.now() - dueAt) * 1e6);
          },
        ),
      );
    }
    await Promise.all(calls);
  } finally {
    clearInterval(timer);
  }
  await Promise.all(hostileJobs);
  await settled(budget);
  return {
    p99Ns: p99(latencies),
    calls: latencies.length,
    failures,
    firstFailure,
    hostileSent: hostileJobs.length,
  };
}

/** Waits until no worker is starting or busy (a stopped job's replacement has loaded). */
async function settled(budget: Budget): Promise<void> {
  for (;;) {
    const stats = budget.stats();
    if (stats.starting === 0 && stats.busy === 0 && stats.queued === 0) return;
    await pause(10);
  }
}

/**
 * A victim's trivial budget calls beside a hostile caller whose inputs run until the deadline
 * (two a second, each stopped at the budget's 1000 ms), against the victim alone: phases alternate
 * in one process (alone, hostile, hostile, alone, …) on one budget with the default workers and
 * lanes; each side's statistic is over its phases' 99th percentiles.
 */
export async function runBudgetFairnessBench(options: BenchOptions): Promise<BenchRow[]> {
  const budget = createBudget({ timeoutMs: 1000 });
  const durationMs = options.quick ? 1500 : 4000;
  const rounds = options.quick ? 2 : 6;
  const alone: Phase[] = [];
  const underAttack: Phase[] = [];
  try {
    await phase(budget, 300, false);
    await phase(budget, 1200, true);
    for (let round = 0; round < rounds; round++) {
      const hostileFirst = round % 2 === 1;
      for (const hostile of hostileFirst ? [true, false] : [false, true]) {
        (hostile ? underAttack : alone).push(await phase(budget, durationMs, hostile));
      }
    }
  } finally {
    await budget.close();
  }
  const subjectStats: Stats = summarise(underAttack.map((entry) => entry.p99Ns));
  const baselineStats: Stats = summarise(alone.map((entry) => entry.p99Ns));
  const ratio = subjectStats.medianNs / baselineStats.medianNs;
  const failures = underAttack.reduce((sum, entry) => sum + entry.failures, 0);
  const calls = underAttack.reduce((sum, entry) => sum + entry.calls, 0);
  const hostileSent = underAttack.reduce((sum, entry) => sum + entry.hostileSent, 0);
  const firstFailure = [...alone, ...underAttack].find(
    (entry) => entry.firstFailure !== undefined,
  )?.firstFailure;
  return [
    {
      benchmark: "budget fairness",
      subject: "victim's trivial calls' p99, hostile caller beside",
      baseline: "victim's p99 alone",
      baselineDescription:
        "the same victim calls on the same budget with no hostile caller, in phases alternating with the subject's",
      subjectStats,
      baselineStats,
      ratio,
      target: "≤ 2× and no victim call failed",
      met: ratio <= 2 && failures === 0,
      note:
        `${calls} victim calls beside ${hostileSent} hostile inputs (each stopped at 1000 ms), ` +
        `${failures} victim calls failed; maxWorkers ${budget.options.maxWorkers}, ` +
        `maxWorkersPerLane ${budget.options.maxWorkersPerLane}` +
        (firstFailure === undefined ? "" : `; first failure: ${firstFailure}`),
    },
  ];
}

// Usage: tsx bench/budget-fairness.ts [--quick]
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await runBudgetFairnessBench({ quick: process.argv.includes("--quick") })) printRow(row);
}
