// Throughput of `from("amqp:queue:in").to("amqp:queue:out")` beside a hand-written amqplib
// consume → publish (confirmed) → ack loop with the same prefetch, same broker, same run, in
// rounds whose order alternates (routekit first in even rounds, amqplib first in odd ones).
// Usage: tsx bench/amqp.ts [--quick]
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";
import { type ChannelModel, type ConfirmChannel, connect } from "amqplib";
import { type BenchOptions, type BenchRow, printRow, type Stats, summarise } from "./harness.js";

const url = process.env.AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672";
const PREFETCH = 50;
const BODY = { order: 0, customer: "c-1042", items: [{ sku: "A-1", quantity: 2 }], note: "x".repeat(100) };

/** Starts moving messages from `input` to `output`; resolves with a function that stops it. */
type Mover = (input: string, output: string, persistent: boolean) => Promise<() => Promise<void>>;

/**
 * Runs the comparison for persistent (the default) and transient messages; one row each
 * (time per message; ratio = routekit / hand-written, so throughput is 1 / ratio of it).
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
  const rounds = options.quick ? 2 : 10;
  try {
    const rows: BenchRow[] = [];
    for (const persistent of [true, false]) {
      // Warm both up (JIT, connections, queue processes) before measuring.
      await timeOnce(channel, handWrittenLoop, 500, persistent);
      await timeOnce(channel, routekitRoute, 500, persistent);
      const routed: number[] = [];
      const handWritten: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const sides = [
          async () => routed.push((await timeOnce(channel, routekitRoute, count, persistent)) / count),
          async () => handWritten.push((await timeOnce(channel, handWrittenLoop, count, persistent)) / count),
        ];
        if (round % 2 === 1) sides.reverse();
        for (const side of sides) await side();
      }
      rows.push(row(summarise(routed), summarise(handWritten), count, rounds, persistent));
    }
    return rows;
  } finally {
    await admin.close().catch(() => {});
  }
}

function row(
  subjectStats: Stats,
  baselineStats: Stats,
  count: number,
  rounds: number,
  persistent: boolean,
): BenchRow {
  const ratio = subjectStats.medianNs / baselineStats.medianNs;
  const perSecond = (ns: number) => Math.round(1e9 / ns);
  const kind = persistent ? "persistent" : "transient";
  return {
    benchmark: `amqp queue → route → queue (${count} ${kind} messages, prefetch ${PREFETCH}, confirms)`,
    subject: "routekit from(amqp).to(amqp)",
    baseline: "hand-written amqplib loop",
    baselineDescription:
      "amqplib alone: consume with the same prefetch, publish each message on a confirm channel, ack after its confirm",
    subjectStats,
    baselineStats,
    ratio,
    target: "≥ 0.9× the hand-written throughput",
    met: 1 / ratio >= 0.9,
    note: `${perSecond(subjectStats.medianNs)} vs ${perSecond(baselineStats.medianNs)} msg/s: ${(1 / ratio).toFixed(2)}× the hand-written throughput; ${rounds} rounds alternating which side goes first, each timed from connecting until the output queue holds all ${count} messages`,
  };
}

/** Fills a fresh input queue, runs `mover` until the output queue holds every message; nanoseconds taken. */
async function timeOnce(
  channel: ConfirmChannel,
  mover: Mover,
  count: number,
  persistent: boolean,
): Promise<number> {
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
    // Both sides are timed the same way: from starting to move (connection setup included)
    // until the output queue holds every message; stopping is not timed.
    const started = process.hrtime.bigint();
    const stop = await mover(input, output, persistent);
    while ((await channel.checkQueue(output)).messageCount < count) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const elapsed = Number(process.hrtime.bigint() - started);
    await stop();
    return elapsed;
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
