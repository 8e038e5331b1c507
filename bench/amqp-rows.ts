// The rows of bench/amqp.ts: a queue kind's timed runs as its wall-clock row and its CPU row.
import { pairedRatios } from "./amqp-paired-ratios.js";
import { type BenchRow, type Stats, summarise } from "./harness.js";

/** The timed runs of one side, in round order. */
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
): BenchRow[] {
  const kind = persistent ? "persistent" : "transient";
  const benchmark = `amqp queue → route → queue (${count} ${kind} messages, prefetch ${prefetch}, confirms)`;
  const baselineDescription =
    "amqplib alone: consume with the same prefetch, publish each message on a confirm channel, ack after its confirm";
  const perSecond = (ns: number) => Math.round(1e9 / ns);
  const wall = [summarise(routed.wall), summarise(handWritten.wall)] as const;
  const cpu = [summarise(routed.cpu), summarise(handWritten.cpu)] as const;
  const wallRatio = wall[0].medianNs / wall[1].medianNs;
  const cpuRatio = cpu[0].medianNs / cpu[1].medianNs;
  const brokerCpu = [summarise(routed.broker), summarise(handWritten.broker)] as const;
  const brokerNote = Number.isNaN(brokerCpu[0].medianNs)
    ? "the broker's CPU time is not visible here"
    : `the broker spent ${micros(brokerCpu[0])} vs ${micros(brokerCpu[1])} of CPU per message (round by round: ${pairedRatios(routed.broker, handWritten.broker)})`;
  const pairs = (first: string, second: string) =>
    Array.from({ length: runsPerRound }, (_, pair) =>
      pair % 2 === 0 ? first + second : second + first,
    ).join("");
  const order = `${pairs("A", "B")} or ${pairs("B", "A")}`;
  const setup = `${rounds} rounds, each of ${runsPerRound} run${runsPerRound === 1 ? "" : "s"} of ${count} messages per side in the order ${order} (alternating by round; a side's round is the mean of its runs), after a warm-up round of two runs per side, all on the same two classic queues (purged after each run), each run with the broker idle and after a full collection, timed from connecting until the output queue holds every message; ${conditions}`;
  return [
    {
      benchmark,
      subject: "routekit from(amqp).to(amqp)",
      baseline: "hand-written amqplib loop",
      baselineDescription,
      subjectStats: wall[0],
      baselineStats: wall[1],
      ratio: wallRatio,
      target: "≥ 0.9× the hand-written throughput",
      met: 1 / wallRatio >= 0.9,
      note: `${perSecond(wall[0].medianNs)} vs ${perSecond(wall[1].medianNs)} msg/s: ${(1 / wallRatio).toFixed(2)}× the hand-written throughput (round by round: ${pairedRatios(routed.wall, handWritten.wall)}); ${setup}; wall clock, so on a loaded machine it also times how soon the broker gets a CPU; ${brokerNote}`,
    },
    {
      benchmark: `amqp CPU time of the bench process per message (${count} ${kind} messages)`,
      subject: "routekit from(amqp).to(amqp), CPU per message",
      baseline: "hand-written amqplib loop, CPU per message",
      baselineDescription: `${baselineDescription}; CPU time of the bench process (process.cpuUsage) per message`,
      subjectStats: cpu[0],
      baselineStats: cpu[1],
      ratio: cpuRatio,
      target: "≥ 0.9× the hand-written throughput",
      met: 1 / cpuRatio >= 0.9,
      note: `the same runs: ${(1 / cpuRatio).toFixed(2)}× the hand-written messages per CPU second (round by round: ${pairedRatios(routed.cpu, handWritten.cpu)}); the broker's own CPU time is not counted`,
    },
  ];
}

/** "12.3 µs ±4%": a median per message and its spread. */
function micros(stats: Stats): string {
  return `${(stats.medianNs / 1000).toFixed(1)} µs ±${stats.spreadPercent.toFixed(0)}%`;
}
