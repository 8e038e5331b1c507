import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Statistics of repeated timed runs: per-operation time in nanoseconds. */
export interface Stats {
  medianNs: number;
  minNs: number;
  maxNs: number;
  /** (max - min) / median, in percent. */
  spreadPercent: number;
  runs: number;
  /**
   * The per-operation times in the order measured, round by round: the ratio of a subject's and
   * its baseline's runs of one round is the paired ratio (`pairedRatio`).
   */
  samples?: number[];
}

/** The median and interquartile range of the round-by-round ratios, subject run / baseline run. */
export interface PairedRatio {
  median: number;
  lowerQuartile: number;
  upperQuartile: number;
  rounds: number;
}

/** One row of the results: a subject beside its baseline, measured in the same process. */
export interface BenchRow {
  benchmark: string;
  subject: string;
  baseline: string;
  /** One line: what the baseline does, written without routekit (RESULTS.md lists it). */
  baselineDescription?: string;
  subjectStats: Stats;
  baselineStats: Stats;
  /** subject time / baseline time (lower is better) unless `higherIsBetter`. */
  ratio: number;
  target: string;
  met: boolean;
  note?: string;
  /** What the stats' `medianNs` hold: time in nanoseconds (default) or a size in bytes. */
  unit?: "time" | "bytes";
}

export interface BenchOptions {
  quick: boolean;
}

/** Median, min, max of per-op times. */
export function summarise(samplesNs: number[]): Stats {
  const sorted = [...samplesNs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const min = sorted[0]!;
  const max = sorted[sorted.length - 1]!;
  return {
    medianNs: median,
    minNs: min,
    maxNs: max,
    spreadPercent: ((max - min) / median) * 100,
    runs: sorted.length,
    samples: [...samplesNs],
  };
}

/** The value at quantile `q` (0–1) of sorted `values`, interpolated between neighbours. */
function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/**
 * The row's ratio taken round by round: subject run / baseline run of the same round, with the
 * median and quartiles of those ratios, in which the machine's drift between rounds cancels.
 * Undefined when the two sides were not measured in the same rounds (no samples, or not as many).
 */
export function pairedRatio(row: Pick<BenchRow, "subjectStats" | "baselineStats">): PairedRatio | undefined {
  const subject = row.subjectStats.samples;
  const baseline = row.baselineStats.samples;
  if (subject === undefined || baseline === undefined || subject.length !== baseline.length) return undefined;
  const ratios = subject
    .map((value, round) => value / baseline[round]!)
    .filter((ratio) => Number.isFinite(ratio))
    .sort((a, b) => a - b);
  if (ratios.length === 0) return undefined;
  return {
    median: quantile(ratios, 0.5),
    lowerQuartile: quantile(ratios, 0.25),
    upperQuartile: quantile(ratios, 0.75),
    rounds: ratios.length,
  };
}

/** The paired ratio as the results show it beside the ratio of medians: "1.32 (IQR 1.20–1.45)". */
export function pairedText(row: Pick<BenchRow, "subjectStats" | "baselineStats">): string {
  const paired = pairedRatio(row);
  if (paired === undefined) return "— (not paired)";
  const text = (value: number) => (value >= 0.1 ? value.toFixed(2) : value.toPrecision(2));
  return `${text(paired.median)} (IQR ${text(paired.lowerQuartile)}–${text(paired.upperQuartile)})`;
}

/**
 * A young-generation collection (scavenge) before each timed run, so the garbage one side left is
 * not collected in the next side's time. Not a full collection: after a forced mark-compact the
 * next run pays for sweeping and re-optimisation (measured here: routekit routes 10–20× slower for
 * thousands of messages), which would time the collector, not the code. The bench process is not
 * started with --expose-gc, so the flag is set here.
 */
let collect: ((options?: { type: "minor" | "major" }) => void) | undefined;
function collector(): (options?: { type: "minor" | "major" }) => void {
  if (collect === undefined) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as (options?: { type: "minor" | "major" }) => void;
  }
  return collect;
}
export function collectYoungGarbage(): void {
  collector()({ type: "minor" });
}

/**
 * A full collection, for benchmarks whose runs last seconds (amqp): each run then starts with
 * the same heap, and the re-optimisation a full collection may cause is a negligible part of
 * the run (unlike for the nanosecond operations `collectYoungGarbage` is made for).
 */
export function collectAllGarbage(): void {
  collector()({ type: "major" });
}

/** Per-operation nanoseconds of one run of `operation` over `iterations`. */
async function timeRun(
  operation: (iterations: number) => void | Promise<void>,
  iterations: number,
): Promise<number> {
  const started = process.hrtime.bigint();
  await operation(iterations);
  return Number(process.hrtime.bigint() - started) / iterations;
}

/** Subject and baseline in alternating rounds (see `compareAll`); both sides' stats. */
export async function compare(
  subject: (iterations: number) => void | Promise<void>,
  baseline: (iterations: number) => void | Promise<void>,
  iterations: number,
  runs: number,
): Promise<{ subject: Stats; baseline: Stats }> {
  const [subjectStats, baselineStats] = await compareAll([subject, baseline], iterations, runs);
  return { subject: subjectStats!, baseline: baselineStats! };
}

/**
 * Measures several operations in rounds: every round runs each operation once, and the order
 * rotates from round to round (AB, BA, AB… for two; ABC, BCA, CAB… for three), so each goes
 * first equally often and drift hits all alike. Two warm-up rounds come first; a young-generation
 * collection precedes every timed run, so one side's garbage is not collected in the other's
 * time. Returns the stats in the order given. `iterations` is one count for all, or one per
 * operation (for a much slower peer).
 */
export async function compareAll(
  operations: ReadonlyArray<(iterations: number) => void | Promise<void>>,
  iterations: number | readonly number[],
  runs: number,
  warmups = 2,
): Promise<Stats[]> {
  return (await sampleAll(operations, iterations, runs, warmups)).map(summarise);
}

/**
 * The rounds of `compareAll`, unsummarised: per-operation nanoseconds of every timed run, one list
 * per operation, in round order (so rows derived from two operations pair runs of one round).
 */
export async function sampleAll(
  operations: ReadonlyArray<(iterations: number) => void | Promise<void>>,
  iterations: number | readonly number[],
  runs: number,
  warmups = 2,
): Promise<number[][]> {
  const countOf = (position: number) =>
    typeof iterations === "number" ? iterations : (iterations[position] ?? iterations[0] ?? 1);
  const samples: number[][] = operations.map(() => []);
  for (let round = 0; round < warmups + runs; round++) {
    for (let offset = 0; offset < operations.length; offset++) {
      const position = (round + offset) % operations.length;
      const operation = operations[position]!;
      if (round < warmups) {
        await operation(countOf(position));
        continue;
      }
      collectYoungGarbage();
      samples[position]?.push(await timeRun(operation, countOf(position)));
    }
  }
  return samples;
}

type Operation = (iterations: number) => Promise<void>;

/**
 * `operations` each wrapped to also record its CPU time (user + system, `process.cpuUsage()`) per
 * iteration in nanoseconds: the machine's load inflates wall-clock time, much less CPU time. Warm-up
 * runs record too; `cpuSamples` drops them.
 */
export function cpuTimed(operations: readonly Operation[]): { timed: Operation[]; cpu: number[][] } {
  const cpu = operations.map((): number[] => []);
  const timed = operations.map((operation, position) => async (iterations: number) => {
    const started = process.cpuUsage();
    await operation(iterations);
    const used = process.cpuUsage(started);
    cpu[position]?.push(((used.user + used.system) * 1000) / iterations);
  });
  return { timed, cpu };
}

/** The timed rounds' CPU samples (the first `warmups` of each operation dropped). */
export const cpuSamples = (cpu: number[][], warmups: number): number[][] =>
  cpu.map((runs) => runs.slice(warmups));

/** A row of `subject` against `baseline`; the ratio is subject time / baseline time. */
export function rowOf(
  fields: Omit<BenchRow, "ratio" | "met">,
  met: (ratio: number, subject: Stats) => boolean,
): BenchRow {
  const ratio = fields.subjectStats.medianNs / fields.baselineStats.medianNs;
  return { ...fields, ratio, met: met(ratio, fields.subjectStats) };
}

/** A row's value: a time, or a size in bytes for rows whose unit is bytes. */
export function formatValue(row: Pick<BenchRow, "unit">, value: number): string {
  if (row.unit !== "bytes") return formatNs(value);
  return value >= 2 ** 20 ? `${(value / 2 ** 20).toFixed(1)} MiB` : `${value.toFixed(0)} B`;
}

export function formatNs(ns: number): string {
  if (ns >= 1_000_000) return `${(ns / 1_000_000).toFixed(2)} ms`;
  if (ns >= 1_000) return `${(ns / 1_000).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

export function printRow(row: BenchRow): void {
  if (row.unit === "bytes") {
    console.log(
      `${row.benchmark}: ${row.subject} ${formatValue(row, row.subjectStats.medianNs)} | ${row.baseline} ${formatValue(row, row.baselineStats.medianNs)} | ratio ${row.ratio.toFixed(2)}, paired ${pairedText(row)} | target ${row.target}: ${row.met ? "met" : "MISSED"}`,
    );
    return;
  }
  const perSecond = (ns: number) => Math.round(1e9 / ns).toLocaleString("en-US");
  console.log(
    `${row.benchmark}: ${row.subject} ${formatNs(row.subjectStats.medianNs)}/op (${perSecond(row.subjectStats.medianNs)}/s, ±${row.subjectStats.spreadPercent.toFixed(0)}%) | ` +
      `${row.baseline} ${formatNs(row.baselineStats.medianNs)}/op (${perSecond(row.baselineStats.medianNs)}/s, ±${row.baselineStats.spreadPercent.toFixed(0)}%) | ratio ${row.ratio.toFixed(2)}, paired ${pairedText(row)} | target ${row.target}: ${row.met ? "met" : "MISSED"}`,
  );
  if (row.note !== undefined) console.log(`   ${row.note}`);
}
