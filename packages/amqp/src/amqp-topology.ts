import type { Channel } from "amqplib";
import { AmqpError, describeError } from "./amqp-error.js";
import type { AmqpEndpointConfig } from "./amqp-options.js";
import { DEAD_LETTER_SUFFIX, deadLetterQueueOf, deadLetterQueueOptions } from "./dead-letter-queue.js";

/** Declares what sending to the endpoint needs: its queue, or its exchange. */
export async function declareForProducer(channel: Channel, config: AmqpEndpointConfig): Promise<void> {
  const { target, options } = config;
  if (target.kind === "queue") {
    await declare(config, `queue '${target.queue}'`, () =>
      channel.assertQueue(target.queue, { durable: options.durable, autoDelete: options.autoDelete }),
    );
    return;
  }
  await declareExchange(channel, config);
}

/**
 * Declares what consuming from the endpoint needs (queue, exchange and binding, dead-letter
 * queue) and returns the name of the queue to consume.
 */
export async function declareForConsumer(channel: Channel, config: AmqpEndpointConfig): Promise<string> {
  const { target, options } = config;
  let queue: string;
  if (target.kind === "queue") {
    queue = target.queue;
    await declare(config, `queue '${queue}'`, () =>
      channel.assertQueue(target.queue, { durable: options.durable, autoDelete: options.autoDelete }),
    );
  } else {
    await declareExchange(channel, config);
    const reply = await declare(config, `queue '${target.queue ?? "(private)"}'`, () =>
      target.queue === undefined
        ? channel.assertQueue("", { exclusive: true, autoDelete: true, durable: false })
        : channel.assertQueue(target.queue, { durable: options.durable, autoDelete: options.autoDelete }),
    );
    queue = reply.queue;
    await declare(config, `binding of queue '${queue}' to exchange '${target.exchange}'`, () =>
      channel.bindQueue(queue, target.exchange, target.bindingKey),
    );
  }
  await declareDeadLetterQueue(channel, config);
  return queue;
}

/**
 * Declares the endpoint's dead-letter queue (if dead-lettering is on) with the options of
 * `deadLetterQueueOptions`; returns its name.
 */
export async function declareDeadLetterQueue(
  channel: Channel,
  config: AmqpEndpointConfig,
): Promise<string | undefined> {
  const deadLetterQueue = deadLetterQueueOf(config);
  if (deadLetterQueue === undefined) return undefined;
  const options = deadLetterQueueOptions(config);
  await declare(
    config,
    `dead-letter queue '${deadLetterQueue}' (durable=${options.durable}, autoDelete=${options.autoDelete})`,
    () => channel.assertQueue(deadLetterQueue, options),
  );
  return deadLetterQueue;
}

async function declareExchange(channel: Channel, config: AmqpEndpointConfig): Promise<void> {
  const { target, options } = config;
  if (target.kind !== "exchange") return;
  // Exchanges named amq.* are the broker's own: they can be checked but not declared.
  if (target.exchange.startsWith("amq.")) {
    await declare(config, `exchange '${target.exchange}'`, () => channel.checkExchange(target.exchange));
    return;
  }
  await declare(config, `${target.exchangeType} exchange '${target.exchange}'`, () =>
    channel.assertExchange(target.exchange, target.exchangeType, {
      durable: options.durable,
      autoDelete: options.autoDelete,
    }),
  );
}

async function declare<T>(config: AmqpEndpointConfig, what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const hint = /PRECONDITION_FAILED/.test(describeError(error)) ? conflictHint(config, what) : "";
    throw new AmqpError(
      "TOPOLOGY_FAILED",
      `Endpoint '${config.uri}': declaring the ${what} failed: ${describeError(error)}${hint}`,
      { cause: error },
    );
  }
}

function conflictHint(config: AmqpEndpointConfig, what: string): string {
  const general =
    " — it exists with other settings: use the same options (durable, autoDelete, exchangeType) everywhere, or delete it";
  const rule =
    "a dead-letter queue NAME.dlq is declared with the durable of NAME's consumer, and autoDelete when NAME is temporary";
  if (what.startsWith("dead-letter queue")) {
    return ` — it exists with other settings (${rule}): delete it, or consume it with the same durable and autoDelete as this endpoint`;
  }
  const queue = config.target.queue;
  if (queue?.endsWith(DEAD_LETTER_SUFFIX) === true) {
    const base = queue.slice(0, -DEAD_LETTER_SUFFIX.length);
    return ` — it exists with other settings (${rule}): consume it with the same durable and autoDelete as the consumer of '${base}'`;
  }
  return general;
}

/**
 * True for failures of the connection or channel that a reconnection may cure; false for
 * refusals by the broker (404 not found, 403 access refused, 406 precondition failed...).
 */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof AmqpError) {
    if (error.code === "CONNECTION_FAILED") return true;
    return error.code === "TOPOLOGY_FAILED" && isTransientFailure(error.cause);
  }
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  // 320 connection forced (closed by an operator or a restart), 506 resource error, 541 internal error
  if (typeof code === "number") return code === 320 || code === 506 || code === 541;
  return /closed|socket|ECONN|EPIPE|ETIMEDOUT|EHOSTUNREACH/i.test(describeError(error));
}
