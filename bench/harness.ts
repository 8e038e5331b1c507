/** Statistics of repeated timed runs: per-operation time in nanoseconds. */
export interface Stats {
  medianNs: number;
  minNs: number;
  maxNs: number;
  /** (max - min) / median, in percent. */
  spreadPercent: number;
  runs: number;
}

/** One row of the results: a subject beside its baseline, measured in the same process. */
export interface BenchRow {
  benchmark: string;
  subject: string;
  baseline: string;
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
  };
}

/**
 * Times `operation` run `iterations` times per run, after warm-up runs, interleaving nothing:
 * returns per-operation nanoseconds per run.
 */
export async function measure(
  operation: (iterations: number) => void | Promise<void>,
  iterations: number,
  runs: number,
  warmups = 2,
): Promise<Stats> {
  for (let index = 0; index < warmups; index++) await operation(iterations);
  const samples: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = process.hrtime.bigint();
    await operation(iterations);
    samples.push(Number(process.hrtime.bigint() - started) / iterations);
  }
  return summarise(samples);
}

/** Measures subject and baseline alternately (so drift hits both) and returns both stats. */
export async function compare(
  subject: (iterations: number) => void | Promise<void>,
  baseline: (iterations: number) => void | Promise<void>,
  iterations: number,
  runs: number,
): Promise<{ subject: Stats; baseline: Stats }> {
  const subjectSamples: number[] = [];
  const baselineSamples: number[] = [];
  await measure(subject, iterations, 1, 2);
  await measure(baseline, iterations, 1, 2);
  for (let index = 0; index < runs; index++) {
    subjectSamples.push((await measure(subject, iterations, 1, 0)).medianNs);
    baselineSamples.push((await measure(baseline, iterations, 1, 0)).medianNs);
  }
  return { subject: summarise(subjectSamples), baseline: summarise(baselineSamples) };
}

/**
 * Measures several operations in turn (each run visits every operation once, so drift hits all
 * of them alike) after two warm-ups each; returns their stats in the order given. `iterations`
 * is one count for all, or one per operation (for a much slower peer).
 */
export async function compareAll(
  operations: ReadonlyArray<(iterations: number) => void | Promise<void>>,
  iterations: number | readonly number[],
  runs: number,
): Promise<Stats[]> {
  const countOf = (position: number) =>
    typeof iterations === "number" ? iterations : (iterations[position] ?? iterations[0] ?? 1);
  const samples: number[][] = operations.map(() => []);
  for (const [position, operation] of operations.entries()) await measure(operation, countOf(position), 1, 2);
  for (let index = 0; index < runs; index++) {
    for (const [position, operation] of operations.entries()) {
      samples[position]?.push((await measure(operation, countOf(position), 1, 0)).medianNs);
    }
  }
  return samples.map(summarise);
}

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
  return row.unit === "bytes" ? `${(value / 2 ** 20).toFixed(1)} MiB` : formatNs(value);
}

export function formatNs(ns: number): string {
  if (ns >= 1_000_000) return `${(ns / 1_000_000).toFixed(2)} ms`;
  if (ns >= 1_000) return `${(ns / 1_000).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

export function printRow(row: BenchRow): void {
  if (row.unit === "bytes") {
    console.log(
      `${row.benchmark}: ${row.subject} ${formatValue(row, row.subjectStats.medianNs)} | ${row.baseline} ${formatValue(row, row.baselineStats.medianNs)} | ratio ${row.ratio.toFixed(2)} | target ${row.target}: ${row.met ? "met" : "MISSED"}`,
    );
    return;
  }
  const perSecond = (ns: number) => Math.round(1e9 / ns).toLocaleString("en-US");
  console.log(
    `${row.benchmark}: ${row.subject} ${formatNs(row.subjectStats.medianNs)}/op (${perSecond(row.subjectStats.medianNs)}/s, ±${row.subjectStats.spreadPercent.toFixed(0)}%) | ` +
      `${row.baseline} ${formatNs(row.baselineStats.medianNs)}/op (${perSecond(row.baselineStats.medianNs)}/s) | ratio ${row.ratio.toFixed(2)} | target ${row.target}: ${row.met ? "met" : "MISSED"}`,
  );
  if (row.note !== undefined) console.log(`   ${row.note}`);
}
