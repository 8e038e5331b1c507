import type { AmqpEndpointConfig } from "./amqp-options.js";

/** The suffix that names a dead-letter queue: `orders.dlq` holds what `orders` could not handle. */
export const DEAD_LETTER_SUFFIX = ".dlq";

/**
 * True when the endpoint consumes a dead-letter queue (its queue's name ends in `.dlq`). Such a
 * consumer is the end of the line: it neither redelivers through the broker nor declares a
 * dead-letter queue of its own, unless `deadLetterQueue` names one.
 */
export function consumesDeadLetterQueue(config: AmqpEndpointConfig): boolean {
  return config.target.queue?.endsWith(DEAD_LETTER_SUFFIX) === true;
}

/** True when the consumed queue goes away by itself: `autoDelete`, or an exchange consumer's private queue. */
export function consumesTemporaryQueue(config: AmqpEndpointConfig): boolean {
  return (
    config.options.autoDelete || (config.target.kind === "exchange" && config.target.queue === undefined)
  );
}

/** The dead-letter queue of an endpoint, or undefined when dead-lettering is off. */
export function deadLetterQueueOf(config: AmqpEndpointConfig): string | undefined {
  const { options, target } = config;
  if (!options.deadLetter) return undefined;
  if (options.deadLetterQueue !== undefined && options.deadLetterQueue !== "") return options.deadLetterQueue;
  if (consumesDeadLetterQueue(config)) return undefined;
  const base = target.kind === "queue" ? target.queue : (target.queue ?? target.exchange);
  return `${base}${DEAD_LETTER_SUFFIX}`;
}

/**
 * How the dead-letter queue is declared: `durable` as the queue, and `autoDelete` when the
 * queue is temporary (`autoDelete`, or a private queue), so that a consumer of it declares
 * `NAME.dlq` with the same options it gives `NAME`. No other arguments.
 */
export function deadLetterQueueOptions(config: AmqpEndpointConfig): {
  durable: boolean;
  autoDelete: boolean;
} {
  return { durable: config.options.durable, autoDelete: consumesTemporaryQueue(config) };
}
