import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { howToStart, skipForMissing } from "@routekit/test-support";
import { type Channel, type ChannelModel, connect, type GetMessage } from "amqplib";

/** The broker the tests use (loopback only). */
export const brokerUrl = process.env.AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672";

const where = new URL(brokerUrl).host;

async function probe(): Promise<boolean> {
  try {
    const connection = await connect(brokerUrl, { timeout: 3000 });
    await connection.close();
    return true;
  } catch (error) {
    skipForMissing(`RabbitMQ on ${where}`, howToStart("RabbitMQ"), error);
    return false;
  }
}

/** True when a broker answers; false (after one line saying how to start one) when it does not. */
export const brokerAvailable = await probe();

/** A queue name of its own for one test. */
export function uniqueName(label: string): string {
  return `rk-test-${label}-${randomUUID().slice(0, 8)}`;
}

/** Closes every connection on the broker, as an operator or a broker restart would. */
export async function closeAllConnections(): Promise<void> {
  await promisify(execFile)("rabbitmqctl", [
    "close_all_connections",
    "routekit amqp test: connections closed",
  ]);
}

/** Applies a broker policy to the queues whose name is exactly `queue`; returns a function that removes it. */
export async function applyQueuePolicy(
  queue: string,
  definition: Record<string, unknown>,
): Promise<() => Promise<void>> {
  const run = promisify(execFile);
  const name = `policy-${queue}`;
  await run("rabbitmqctl", [
    "set_policy",
    "--apply-to",
    "queues",
    name,
    `^${queue}$`,
    JSON.stringify(definition),
  ]);
  return async () => {
    await run("rabbitmqctl", ["clear_policy", name]);
  };
}

/** A raw amqplib connection for looking at queues from outside routekit, and for cleaning up. */
export class BrokerInspector {
  #connection: ChannelModel | undefined;
  #channel: Channel | undefined;
  readonly #queues = new Set<string>();
  readonly #exchanges = new Set<string>();

  async channel(): Promise<Channel> {
    if (this.#channel === undefined) {
      this.#connection = await connect(brokerUrl);
      this.#connection.on("error", () => {});
      this.#channel = await this.#connection.createChannel();
      this.#channel.on("error", () => {});
      this.#channel.on("close", () => {
        this.#channel = undefined;
      });
    }
    return this.#channel;
  }

  /** Remembers queues (and exchanges) to delete in `cleanup`. */
  track(queues: string[], exchanges: string[] = []): void {
    for (const queue of queues) this.#queues.add(queue);
    for (const exchange of exchanges) this.#exchanges.add(exchange);
  }

  async messageCount(queue: string): Promise<number> {
    return (await (await this.channel()).checkQueue(queue)).messageCount;
  }

  /** True when the queue exists (checked on a throw-away channel: a missing queue closes it). */
  async queueExists(queue: string): Promise<boolean> {
    await this.channel();
    const probe = await this.#connection?.createChannel();
    if (probe === undefined) return false;
    probe.on("error", () => {});
    try {
      await probe.checkQueue(queue);
      await probe.close();
      return true;
    } catch {
      return false;
    }
  }

  /** Takes every message waiting in a queue (acknowledged). */
  async drain(queue: string): Promise<GetMessage[]> {
    const channel = await this.channel();
    const messages: GetMessage[] = [];
    for (;;) {
      const message = await channel.get(queue, { noAck: true });
      if (message === false) return messages;
      messages.push(message);
    }
  }

  async cleanup(): Promise<void> {
    const channel = await this.channel();
    for (const queue of this.#queues) await channel.deleteQueue(queue);
    for (const exchange of this.#exchanges) await channel.deleteExchange(exchange);
    this.#queues.clear();
    this.#exchanges.clear();
  }

  async close(): Promise<void> {
    await this.#connection?.close().catch(() => {});
    this.#connection = undefined;
    this.#channel = undefined;
  }
}
