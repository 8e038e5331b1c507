// Throughput of `from("amqp:queue:in").to("amqp:queue:out")` beside a hand-written amqplib
// consume → publish (confirmed) → ack loop with the same prefetch, same broker, same run, and
// beside the same loop acknowledging in batches as routekit does. Every side runs 60 times,
// 10,000 messages a run, in groups ABC, CBA, ABC, …; five rounds interleave: round k is groups
// k, k + 5, k + 10, …, and a side's round is the mean of its twelve runs there.
// Every round thus spans the whole measurement, and the machine's slow drift over its minutes
// (its speed moves by more than 15% in that time) falls into all rounds alike instead of making
// one round of consecutive runs slower than another; the notes give the spreads of rounds of
// consecutive runs as well, which show that drift. On a shared 2-core
// machine the wall clock per message follows the CPU other processes take (the broker, the
// bottleneck, then lacks it) and that changes from second to second, so interleaved short runs
// average more of it than one long run per side; each run also waits (briefly, within a budget)
// for other processes to quiet down, as it waits for the broker to be idle. Beside the wall
// clock, each run's CPU time of the bench process (`process.cpuUsage()`) is measured. Every run
// starts from the same state: the queue pair (the same two classic queues for every run, purged
// after each) refilled and confirmed, the previous run's consumers cancelled, channels and
// connections closed, the broker back to idle (its CPU time read from /proc), and a full
// collection in the bench process.
// Usage: tsx bench/amqp.ts [--quick] [--verbose] (--verbose prints every run: its times, where the
// broker's CPU went, the bench process's collections, other processes' CPU, the untimed phases)
import { randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";
import { type ChannelModel, type ConfirmChannel, connect, type Message } from "amqplib";
import {
  type Broker,
  findBroker,
  IDLE_LIMIT_MS,
  processCpuNs,
  QUIET_BUDGET_MS,
  QUIET_LIMIT_MS,
  QUIET_OTHERS_SHARE,
  sleep,
  waitForQuiet,
} from "./amqp-broker.js";
import {
  calibrationCpuNs,
  diagnosticsSince,
  formatDiagnostics,
  markDiagnostics,
  observeGarbageCollection,
  type RunDiagnostics,
  stopObservingGarbageCollection,
} from "./amqp-diagnostics.js";
import { rowsOf, type SideSamples } from "./amqp-rows.js";
import { type BenchOptions, type BenchRow, collectAllGarbage, printRow, summarise } from "./harness.js";

const url = process.env.AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672";
const PREFETCH = 50;
const BODY = { order: 0, customer: "c-1042", items: [{ sku: "A-1", quantity: 2 }], note: "x".repeat(100) };
/** The fair baseline's name and description: the hand loop acknowledging in batches, as routekit does. */
const BATCHED_BASELINE = {
  name: "hand-written amqplib loop, batched acks",
  description:
    "amqplib alone, acknowledging as routekit does: consume with the same prefetch, publish each message on a confirm channel, ack the confirmed deliveries with allUpTo once per event-loop turn",
};
/** How often the output queue's depth is read while a run moves messages. */
const POLL_MS = 10;

/** Starts moving messages from `input` to `output`; resolves with a function that stops it. */
type Mover = (input: string, output: string, persistent: boolean) => Promise<() => Promise<void>>;

/** One timed run: wall clock, the bench process's and the broker's CPU time, all per message, in ns. */
interface RunCost {
  wallNs: number;
  cpuNs: number;
  brokerNs: number;
  /** What else happened meanwhile (printed with --verbose). */
  diagnostics: RunDiagnostics;
  /** CPU time of a fixed loop just before the run (see calibrationCpuNs), in ns. */
  calibrationNs: number;
  /**
   * Parts of the run, in ms: untimed, filling the input queue, waiting for an idle broker, and
   * stopping; timed, setting up (connecting, and for routekit starting the context and route).
   */
  phases: { fillMs: number; idleMs: number; setupMs: number; stopMs: number };
}

/**
 * Runs the comparison for persistent (the default) and transient messages; two rows each: wall
 * clock per message (ratio = routekit / hand-written, so throughput is 1 / ratio of it) and the
 * bench process's CPU time per message.
 */
export async function runAmqpBench(options: BenchOptions): Promise<BenchRow[]> {
  let admin: ChannelModel;
  try {
    admin = await connect(url, { timeout: 3000 });
  } catch (error) {
    const line = `amqp bench skipped: no RabbitMQ at ${new URL(url).host} (${String(error)}) — start one with \`rabbitmq-server -detached\``;
    if (process.env.CI === "true") throw new Error(line);
    console.log(line);
    return [];
  }
  const channel = await admin.createConfirmChannel();
  const count = options.quick ? 2_000 : 10_000;
  // Five rounds are the fewest whose round-by-round ratios still give their median a
  // distribution-free interval of at least 90% (the lowest and highest of five: 94%). A single
  // run varies by 6–12% (coefficient of variation) from the next, so a round's mean varies by
  // that over the square root of its runs: with twelve, 95% of the ranges of five round means
  // stay under 7–13% (3.86 σ for five normal values), as long as the interleaving keeps the
  // machine's drift out of them.
  const rounds = options.quick ? 2 : 5;
  const runsPerRound = options.quick ? 1 : 12;
  // --quick (CI) does not wait for other processes: it has to stay short, and its numbers are not kept.
  const quietBudgetMs = options.quick ? 0 : QUIET_BUDGET_MS;
  const verbose = process.argv.includes("--verbose");
  const broker: Broker = { pid: findBroker(), busyStarts: 0, contendedStarts: 0, quietBudgetMs: 0 };
  if (verbose) observeGarbageCollection();
  const suffix = randomUUID().slice(0, 8);
  const queues: QueuePair = { input: `bench-in-${suffix}`, output: `bench-out-${suffix}` };
  try {
    const rows: BenchRow[] = [];
    for (const persistent of [true, false]) {
      broker.quietBudgetMs = 0;
      for (const queue of [queues.input, queues.output]) await channel.assertQueue(queue, { durable: true });
      const movers = [routekitRoute, handWrittenLoop, batchedAckLoop];
      // A warm-up round (AB, BA) of full runs: JIT, connections, the broker's queue processes
      // and (persistent messages) its files.
      for (const [index, mover] of [...movers, ...[...movers].reverse()].entries()) {
        const cost = await timeOnce(channel, queues, mover, count, persistent, broker);
        if (verbose) printRun(persistent, `warm-up ${index}`, mover, cost);
      }
      broker.busyStarts = 0;
      broker.contendedStarts = 0;
      broker.quietBudgetMs = quietBudgetMs;
      const loadBefore = loadavg()[0]!;
      const routed: SideSamples = { wall: [], cpu: [], broker: [] };
      const handWritten: SideSamples = { wall: [], cpu: [], broker: [] };
      const batched: SideSamples = { wall: [], cpu: [], broker: [] };
      const othersShares: number[] = [];
      const calibrations: number[] = [];
      // Pairs of runs in time order, AB, BA, AB, …; round k is pairs k, k + rounds, k + 2·rounds, …
      // (rowsOf takes their means), so every round spans the whole measurement.
      for (let pair = 0; pair < rounds * runsPerRound; pair++) {
        const order = pair % 2 === 0 ? movers : [...movers].reverse();
        for (const mover of order) {
          const cost = await timeOnce(channel, queues, mover, count, persistent, broker);
          if (verbose) printRun(persistent, `pair ${pair} (round ${pair % rounds})`, mover, cost);
          othersShares.push(cost.diagnostics.othersShare);
          calibrations.push(cost.calibrationNs);
          const samples =
            mover === routekitRoute ? routed : mover === handWrittenLoop ? handWritten : batched;
          samples.wall.push(cost.wallNs);
          samples.cpu.push(cost.cpuNs);
          samples.broker.push(cost.brokerNs);
        }
      }
      const load = `load average ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)} over the rounds`;
      const idle =
        broker.pid === undefined
          ? "the broker's idleness is not visible here (each run waited 1 s instead)"
          : `${broker.busyStarts} of ${rounds * runsPerRound * movers.length} runs started before the broker was idle (waited ${IDLE_LIMIT_MS / 1000} s), ${broker.contendedStarts} while other processes used more than ${QUIET_OTHERS_SHARE} of a core (a run waited up to ${QUIET_LIMIT_MS / 1000} s for them to quiet down, all runs of this kind ${quietBudgetMs / 1000} s in all, ${Math.round((quietBudgetMs - Math.max(broker.quietBudgetMs, 0)) / 1000)} s used)`;
      const others = summarise(othersShares).medianNs;
      const contention = Number.isNaN(others)
        ? ""
        : `; other processes on the machine used a median ${others.toFixed(2)} of its ${cpus().length} cores during the runs`;
      const speed = summarise(calibrations);
      const machine = `; a fixed loop timed before every run (median of three tries) took ${(speed.medianNs / 1e6).toFixed(1)} ms of CPU ±${speed.spreadPercent.toFixed(0)}% (the machine's own speed, which on a virtual machine also follows the host's other tenants)`;
      rows.push(
        ...rowsOf(
          routed,
          handWritten,
          count,
          rounds,
          runsPerRound,
          persistent,
          `${load}${contention}${machine}; ${idle}`,
          PREFETCH,
        ),
        ...rowsOf(
          routed,
          batched,
          count,
          rounds,
          runsPerRound,
          persistent,
          "the same runs as the rows above",
          PREFETCH,
          BATCHED_BASELINE,
        ),
      );
    }
    return rows;
  } finally {
    stopObservingGarbageCollection();
    for (const queue of [queues.input, queues.output, `${queues.input}.dlq`]) {
      await channel.deleteQueue(queue).catch(() => {});
    }
    await admin.close().catch(() => {});
  }
}

/** One run, for --verbose. */
function printRun(persistent: boolean, label: string, mover: Mover, cost: RunCost): void {
  const side = mover === routekitRoute ? "routekit" : "amqplib ";
  const us = (ns: number) => (ns / 1000).toFixed(1);
  console.log(
    `  ${persistent ? "persistent" : "transient"} ${label} ${side}: wall ${us(cost.wallNs)} µs, cpu ${us(cost.cpuNs)} µs, broker ${us(cost.brokerNs)} µs per message; load ${loadavg()[0]!.toFixed(2)}; ${formatDiagnostics(cost.diagnostics)}; fixed loop ${(cost.calibrationNs / 1e6).toFixed(1)} ms; fill ${cost.phases.fillMs} ms, idle wait ${cost.phases.idleMs} ms, setup (timed) ${cost.phases.setupMs.toFixed(1)} ms, stop ${cost.phases.stopMs} ms`,
  );
}

/** The queue pair every run of one queue kind moves messages between, purged after each run. */
interface QueuePair {
  input: string;
  output: string;
}

/**
 * Fills the (empty) input queue, waits for the confirms and an idle broker, collects all garbage,
 * then runs `mover` until the output queue holds every message; cost per message. The mover has
 * stopped (consumers cancelled, confirms drained, channels and connections closed) and both
 * queues are purged when this returns.
 */
async function timeOnce(
  channel: ConfirmChannel,
  queues: QueuePair,
  mover: Mover,
  count: number,
  persistent: boolean,
  broker: Broker,
): Promise<RunCost> {
  const { input, output } = queues;
  const phases = { fillMs: 0, idleMs: 0, setupMs: 0, stopMs: 0 };
  let phaseStarted = Date.now();
  const phaseEnded = () => {
    const ms = Date.now() - phaseStarted;
    phaseStarted = Date.now();
    return ms;
  };
  try {
    for (let index = 0; index < count; index++) {
      const content = Buffer.from(JSON.stringify({ ...BODY, order: index }));
      channel.sendToQueue(input, content, { persistent, contentType: "application/json" });
    }
    await channel.waitForConfirms();
    phases.fillMs = phaseEnded();
    await waitForQuiet(broker);
    const calibrationNs = calibrationCpuNs();
    collectAllGarbage();
    phases.idleMs = phaseEnded();
    // Both sides are timed the same way: from starting to move (connection setup included)
    // until the output queue holds every message; stopping is not timed.
    const marked = markDiagnostics(broker.pid);
    const cpuBefore = process.cpuUsage();
    const brokerBefore = processCpuNs(broker.pid);
    const started = process.hrtime.bigint();
    const stop = await mover(input, output, persistent);
    phases.setupMs = Number(process.hrtime.bigint() - started) / 1e6;
    while ((await channel.checkQueue(output)).messageCount < count) {
      await sleep(POLL_MS);
    }
    const wallNs = Number(process.hrtime.bigint() - started);
    const cpu = process.cpuUsage(cpuBefore);
    const brokerNs = processCpuNs(broker.pid) - brokerBefore;
    const diagnostics = diagnosticsSince(marked, markDiagnostics(broker.pid), count, wallNs);
    phaseEnded();
    await stop();
    phases.stopMs = phaseEnded();
    return {
      wallNs: wallNs / count,
      cpuNs: ((cpu.user + cpu.system) * 1_000) / count,
      brokerNs: brokerNs / count,
      diagnostics,
      calibrationNs,
      phases,
    };
  } finally {
    for (const queue of [input, output]) await channel.purgeQueue(queue);
  }
}

/** The limit: consume with prefetch, publish each message with a confirm, ack after the confirm. */
const handWrittenLoop: Mover = async (input, output, persistent) => {
  const connection = await connect(url);
  const consumer = await connection.createChannel();
  const publisher = await connection.createConfirmChannel();
  await consumer.prefetch(PREFETCH);
  const { consumerTag } = await consumer.consume(input, (message) => {
    if (message === null) return;
    const { contentType, headers } = message.properties;
    publisher.publish("", output, message.content, { persistent, contentType, headers }, (error) => {
      if (error) consumer.nack(message);
      else consumer.ack(message);
    });
  });
  // Stopping as the route does: no more deliveries, every confirm in, then the channels close.
  return async () => {
    await consumer.cancel(consumerTag);
    await publisher.waitForConfirms();
    await connection.close();
  };
};

/**
 * The same loop acknowledging in batches, as routekit does: a confirmed delivery is acknowledged
 * with `allUpTo` once per event-loop turn (confirms on one channel arrive in publish order, so
 * every earlier delivery is confirmed by then); a failed confirm nacks its delivery at once.
 */
const batchedAckLoop: Mover = async (input, output, persistent) => {
  const connection = await connect(url);
  const consumer = await connection.createChannel();
  const publisher = await connection.createConfirmChannel();
  await consumer.prefetch(PREFETCH);
  let latest: Message | undefined;
  let flushing = false;
  const flush = (): void => {
    flushing = false;
    if (latest !== undefined) consumer.ack(latest, true);
    latest = undefined;
  };
  const { consumerTag } = await consumer.consume(input, (message) => {
    if (message === null) return;
    const { contentType, headers } = message.properties;
    publisher.publish("", output, message.content, { persistent, contentType, headers }, (error) => {
      if (error) {
        flush();
        consumer.nack(message);
        return;
      }
      latest = message;
      if (!flushing) {
        flushing = true;
        setImmediate(flush);
      }
    });
  });
  return async () => {
    await consumer.cancel(consumerTag);
    await publisher.waitForConfirms();
    await new Promise((resolve) => setImmediate(resolve));
    flush();
    await connection.close();
  };
};

/** The subject: a routekit context with one route. */
const routekitRoute: Mover = async (input, output, persistent) => {
  const context = createContext();
  context.use(amqpPlugin());
  await context.addRoutes((r) => {
    r.from(`amqp:queue:${input}?prefetch=${PREFETCH}`).to(`amqp:queue:${output}?persistent=${persistent}`);
  });
  await context.start();
  return () => context.stop();
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await runAmqpBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
