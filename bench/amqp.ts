// Throughput of `from("amqp:queue:in").to("amqp:queue:out")` beside a hand-written amqplib
// consume → publish (confirmed) → ack loop with the same prefetch, same broker, same run, in
// rounds whose order alternates (routekit first in even rounds, amqplib first in odd ones).
// Beside the wall clock, each run's CPU time of the bench process (`process.cpuUsage()`) is
// measured: the broker runs in its own process, and CPU time is much less disturbed by a busy
// machine than the wall clock.
// Usage: tsx bench/amqp.ts [--quick]
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";
import { type ChannelModel, type ConfirmChannel, connect } from "amqplib";
import {
  type BenchOptions,
  type BenchRow,
  collectYoungGarbage,
  printRow,
  type Stats,
  summarise,
} from "./harness.js";

const url = process.env.AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672";
const PREFETCH = 50;
const BODY = { order: 0, customer: "c-1042", items: [{ sku: "A-1", quantity: 2 }], note: "x".repeat(100) };
/** How often the output queue's depth is read while a run moves messages. */
const POLL_MS = 10;

/** Starts moving messages from `input` to `output`; resolves with a function that stops it. */
type Mover = (input: string, output: string, persistent: boolean) => Promise<() => Promise<void>>;

/** One timed run: wall clock, the bench process's and the broker's CPU time, all per message, in ns. */
interface RunCost {
  wallNs: number;
  cpuNs: number;
  brokerNs: number;
}

/** The timed runs of one side, in round order. */
interface SideSamples {
  wall: number[];
  cpu: number[];
  broker: number[];
}

/** Clock ticks per second of /proc/<pid>/stat (Linux's USER_HZ). */
const TICKS_PER_SECOND = 100;

/**
 * The broker's process when it runs on this machine and /proc shows it (the one `beam.smp`),
 * else undefined. Its CPU time per message shows the work each side gives the broker, which on a
 * loaded machine decides the throughput more than the bench process does.
 */
function findBroker(): number | undefined {
  let found: number[] = [];
  try {
    found = readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "beam.smp";
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return undefined;
  }
  return found.length === 1 ? found[0] : undefined;
}

/** CPU time of a process so far (user + system), in ns; NaN when it cannot be read. */
function processCpuNs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1e9) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
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
  const count = options.quick ? 2_000 : 20_000;
  const warmupCount = options.quick ? 500 : 5_000;
  const rounds = options.quick ? 2 : 8;
  const broker = findBroker();
  try {
    const rows: BenchRow[] = [];
    for (const persistent of [true, false]) {
      const movers = [routekitRoute, handWrittenLoop];
      // Two warm-up rounds (AB, BA): JIT, connections, the broker's queue processes.
      for (const mover of [...movers, ...[...movers].reverse()]) {
        await timeOnce(channel, mover, warmupCount, persistent, broker);
      }
      const routed: SideSamples = { wall: [], cpu: [], broker: [] };
      const handWritten: SideSamples = { wall: [], cpu: [], broker: [] };
      for (let round = 0; round < rounds; round++) {
        const sides: Array<[Mover, SideSamples]> = [
          [routekitRoute, routed],
          [handWrittenLoop, handWritten],
        ];
        if (round % 2 === 1) sides.reverse();
        for (const [mover, samples] of sides) {
          const cost = await timeOnce(channel, mover, count, persistent, broker);
          samples.wall.push(cost.wallNs);
          samples.cpu.push(cost.cpuNs);
          samples.broker.push(cost.brokerNs);
        }
      }
      rows.push(...rowsOf(routed, handWritten, count, rounds, persistent));
    }
    return rows;
  } finally {
    await admin.close().catch(() => {});
  }
}

/** The wall-clock row and the CPU row of one queue kind. */
function rowsOf(
  routed: SideSamples,
  handWritten: SideSamples,
  count: number,
  rounds: number,
  persistent: boolean,
): BenchRow[] {
  const kind = persistent ? "persistent" : "transient";
  const benchmark = `amqp queue → route → queue (${count} ${kind} messages, prefetch ${PREFETCH}, confirms)`;
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
  const setup = `${rounds} rounds of ${count} messages alternating which side goes first (after two warm-up rounds), each run on fresh queues, timed from connecting until the output queue holds every message`;
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

/** The median and spread of the per-round ratios subject / baseline (drift between rounds cancels). */
function pairedRatios(subject: number[], baseline: number[]): string {
  const ratios = summarise(subject.map((value, round) => value / baseline[round]!));
  return `median ratio ${ratios.medianNs.toFixed(2)}, ±${ratios.spreadPercent.toFixed(0)}%`;
}

/** Fills a fresh input queue, runs `mover` until the output queue holds every message; cost per message. */
async function timeOnce(
  channel: ConfirmChannel,
  mover: Mover,
  count: number,
  persistent: boolean,
  broker: number | undefined,
): Promise<RunCost> {
  const input = `bench-in-${randomUUID().slice(0, 8)}`;
  const output = `bench-out-${randomUUID().slice(0, 8)}`;
  await channel.assertQueue(input, { durable: true });
  await channel.assertQueue(output, { durable: true });
  try {
    for (let index = 0; index < count; index++) {
      const content = Buffer.from(JSON.stringify({ ...BODY, order: index }));
      channel.sendToQueue(input, content, { persistent, contentType: "application/json" });
    }
    await channel.waitForConfirms();
    collectYoungGarbage();
    // Both sides are timed the same way: from starting to move (connection setup included)
    // until the output queue holds every message; stopping is not timed.
    const cpuBefore = process.cpuUsage();
    const brokerBefore = processCpuNs(broker);
    const started = process.hrtime.bigint();
    const stop = await mover(input, output, persistent);
    while ((await channel.checkQueue(output)).messageCount < count) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const wallNs = Number(process.hrtime.bigint() - started);
    const cpu = process.cpuUsage(cpuBefore);
    const brokerNs = processCpuNs(broker) - brokerBefore;
    await stop();
    return {
      wallNs: wallNs / count,
      cpuNs: ((cpu.user + cpu.system) * 1_000) / count,
      brokerNs: brokerNs / count,
    };
  } finally {
    for (const queue of [input, output, `${input}.dlq`]) await channel.deleteQueue(queue);
  }
}

/** The limit: consume with prefetch, publish each message with a confirm, ack after the confirm. */
const handWrittenLoop: Mover = async (input, output, persistent) => {
  const connection = await connect(url);
  const consumer = await connection.createChannel();
  const publisher = await connection.createConfirmChannel();
  await consumer.prefetch(PREFETCH);
  await consumer.consume(input, (message) => {
    if (message === null) return;
    const { contentType, headers } = message.properties;
    publisher.publish("", output, message.content, { persistent, contentType, headers }, (error) => {
      if (error) consumer.nack(message);
      else consumer.ack(message);
    });
  });
  return async () => {
    await publisher.waitForConfirms();
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
