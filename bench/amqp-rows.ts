// The rows of bench/amqp.ts: a queue kind's timed runs as its wall-clock row and its CPU row.
import { pairedRatios } from "./amqp-paired-ratios.js";
import { type BenchRow, type Stats, summarise } from "./harness.js";

/** The timed runs of one side, per message, in the order they ran. */
export interface SideSamples {
  wall: number[];
  cpu: number[];
  broker: number[];
}

/** The wall-clock row and the CPU row of one queue kind. */
export function rowsOf(
  routed: SideSamples,
  handWritten: SideSamples,
  count: number,
  rounds: number,
  runsPerRound: number,
  persistent: boolean,
  conditions: string,
  prefetch: number,
  baseline: { name: string; description: string } = PER_MESSAGE_ACKS,
): BenchRow[] {
  const kind = persistent ? "persistent" : "transient";
  const benchmark = `amqp queue → route → queue (${count} ${kind} messages, prefetch ${prefetch}, confirms)`;
  const baselineDescription = baseline.description;
  const perSecond = (ns: number) => Math.round(1e9 / ns);
  const routedRounds = interleavedRounds(routed, rounds);
  const handRounds = interleavedRounds(handWritten, rounds);
  const wall = [summarise(routedRounds.wall), summarise(handRounds.wall)] as const;
  const cpu = [summarise(routedRounds.cpu), summarise(handRounds.cpu)] as const;
  const wallRatio = wall[0].medianNs / wall[1].medianNs;
  const cpuRatio = cpu[0].medianNs / cpu[1].medianNs;
  const brokerCpu = [summarise(routedRounds.broker), summarise(handRounds.broker)] as const;
  const brokerNote = Number.isNaN(brokerCpu[0].medianNs)
    ? "the broker's CPU time is not visible here"
    : `the broker spent ${micros(brokerCpu[0])} vs ${micros(brokerCpu[1])} of CPU per message (round by round: ${pairedRatios(routedRounds.broker, handRounds.broker)})`;
  // The same runs in rounds of consecutive pairs: their spread also holds the machine's drift.
  const drift = (runs: number[], other: number[]) =>
    `±${summarise(consecutiveRounds(runs, rounds)).spreadPercent.toFixed(0)}% / ±${summarise(consecutiveRounds(other, rounds)).spreadPercent.toFixed(0)}%`;
  const pairs = rounds * runsPerRound;
  const setup = `${pairs} runs of ${count} messages per side in groups run in alternating order (routekit, per-message-ack loop, batched-ack loop, then reversed; after a warm-up group of each order), in ${rounds} interleaved rounds: round k is pairs k, k + ${rounds}, k + ${2 * rounds}, …, so each round spans the whole measurement and a side's round is the mean of its ${runsPerRound} run${runsPerRound === 1 ? "" : "s"} there; in rounds of ${runsPerRound} consecutive pairs instead, the spreads are ${drift(routed.wall, handWritten.wall)} (wall clock) and ${drift(routed.cpu, handWritten.cpu)} (CPU time), which also holds how far the machine's speed drifted while they ran; all runs on the same two classic queues (purged after each run), each with the broker idle and after a full collection, timed from connecting until the output queue holds every message; ${conditions}`;
  return [
    {
      benchmark,
      subject: "routekit from(amqp).to(amqp)",
      baseline: baseline.name,
      baselineDescription,
      subjectStats: wall[0],
      baselineStats: wall[1],
      ratio: wallRatio,
      target: "≥ 0.9× the hand-written throughput",
      met: 1 / wallRatio >= 0.9,
      note: `${perSecond(wall[0].medianNs)} vs ${perSecond(wall[1].medianNs)} msg/s: ${(1 / wallRatio).toFixed(2)}× the hand-written throughput (round by round: ${pairedRatios(routedRounds.wall, handRounds.wall)}); ${setup}; wall clock, so on a loaded machine it also times how soon the broker gets a CPU; ${brokerNote}`,
    },
    {
      benchmark: `amqp CPU time of the bench process per message (${count} ${kind} messages)`,
      subject: "routekit from(amqp).to(amqp), CPU per message",
      baseline: `${baseline.name}, CPU per message`,
      baselineDescription: `${baselineDescription}; CPU time of the bench process (process.cpuUsage) per message`,
      subjectStats: cpu[0],
      baselineStats: cpu[1],
      ratio: cpuRatio,
      target: "≥ 0.9× the hand-written throughput",
      met: 1 / cpuRatio >= 0.9,
      note: `the same runs: ${(1 / cpuRatio).toFixed(2)}× the hand-written messages per CPU second (round by round: ${pairedRatios(routedRounds.cpu, handRounds.cpu)}); the broker's own CPU time is not counted`,
    },
  ];
}

/** The first baseline: the hand loop acknowledging every message after its confirm. */
const PER_MESSAGE_ACKS = {
  name: "hand-written amqplib loop",
  description:
    "amqplib alone: consume with the same prefetch, publish each message on a confirm channel, ack after its confirm",
};

/** A side's interleaved rounds, for each of its measures: round k is the mean of runs k, k + rounds, k + 2·rounds, … */
function interleavedRounds(side: SideSamples, rounds: number): SideSamples {
  const of = (runs: readonly number[]) =>
    Array.from({ length: rounds }, (_, round) => mean(runs.filter((_, run) => run % rounds === round)));
  return { wall: of(side.wall), cpu: of(side.cpu), broker: of(side.broker) };
}

/** `rounds` rounds of consecutive runs: the mean of each of `rounds` equal slices, in order. */
function consecutiveRounds(runs: readonly number[], rounds: number): number[] {
  const size = runs.length / rounds;
  return Array.from({ length: rounds }, (_, round) => mean(runs.slice(round * size, (round + 1) * size)));
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** "12.3 µs ±4%": a median per message and its spread. */
function micros(stats: Stats): string {
  return `${(stats.medianNs / 1000).toFixed(1)} µs ±${stats.spreadPercent.toFixed(0)}%`;
}
