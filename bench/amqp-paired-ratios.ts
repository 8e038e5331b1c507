import { summarise } from "./harness.js";

/**
 * The round-by-round ratios subject / baseline (drift between rounds cancels in each): their
 * median and spread, and a distribution-free confidence interval of their median. The interval
 * is the k-th smallest and k-th largest ratio, for the largest k whose coverage
 * 1 − 2·P(Binomial(n, ½) < k) is still at least 90%; the coverage is stated with it. Unlike the
 * spread (max − min, which can only widen as rounds are added), it narrows with more rounds.
 */
export function pairedRatios(subject: number[], baseline: number[]): string {
  const ratios = subject.map((value, round) => value / baseline[round]!);
  const stats = summarise(ratios);
  const summary = `median ratio ${stats.medianNs.toFixed(2)}, ±${stats.spreadPercent.toFixed(0)}%`;
  const interval = medianInterval(ratios);
  if (interval === undefined) return summary;
  const { low, high, coverage, k } = interval;
  return `${summary}; ${(coverage * 100).toFixed(0)}% confidence interval of the median ratio ${low.toFixed(2)}–${high.toFixed(2)} (order statistics ${k} and ${ratios.length + 1 - k} of ${ratios.length}, distribution-free)`;
}

/** The distribution-free interval of a median with coverage ≥ 90%, or undefined (too few values). */
function medianInterval(
  values: number[],
): { low: number; high: number; coverage: number; k: number } | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  let best: { low: number; high: number; coverage: number; k: number } | undefined;
  for (let k = 1; k <= Math.floor(n / 2); k++) {
    const coverage = 1 - 2 * binomialBelow(n, k);
    if (coverage < 0.9) break;
    best = { low: sorted[k - 1]!, high: sorted[n - k]!, coverage, k };
  }
  return best;
}

/** P(Binomial(n, ½) < k). */
function binomialBelow(n: number, k: number): number {
  let sum = 0;
  let choose = 1;
  for (let i = 0; i < k; i++) {
    sum += choose;
    choose = (choose * (n - i)) / (i + 1);
  }
  return sum / 2 ** n;
}
