import type { ConfirmChannel, Options } from "amqplib";
import { AmqpError, describeError } from "./amqp-error.js";

/**
 * Publishes on a confirm channel and resolves when the broker confirmed the message.
 * Rejects with PUBLISH_NACKED when the broker refuses it, with the channel's error when the
 * channel closes first (a transient failure), and with PUBLISH_FAILED when the message cannot
 * be encoded (e.g. headers over the 64 KiB table limit).
 */
export function publishConfirmed(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish,
): Promise<void> {
  return new Promise((resolve, reject) => {
    publishWithConfirm(channel, exchange, routingKey, content, options, (error) => {
      if (error === undefined) resolve();
      else reject(error);
    });
  });
}

/**
 * `publishConfirmed` with a callback: `settled` is called once, with no argument when the broker
 * confirmed the message, else with the error `publishConfirmed` rejects with.
 */
export function publishWithConfirm(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish,
  settled: (error?: unknown) => void,
): void {
  publishWithCallback(channel, exchange, routingKey, content, options, (error) =>
    settled(confirmFailure(error, exchange, routingKey)),
  );
}

/**
 * What amqplib's confirm callback reports, as `publishConfirmed` rejects with it: undefined when
 * the broker confirmed the message, PUBLISH_NACKED when it refused it, else the channel's error.
 */
export function confirmFailure(error: unknown, exchange: string, routingKey: string): unknown {
  if (error === null || error === undefined) return undefined;
  if (describeError(error) === "message nacked") {
    return new AmqpError(
      "PUBLISH_NACKED",
      `The broker refused the message for ${describeTarget(exchange, routingKey)}`,
    );
  }
  return error;
}

/**
 * Publishes with amqplib's own confirm callback: `onConfirm` gets null once the broker confirmed
 * the message, else an error for `confirmFailure`; when the message cannot be published at all,
 * it is called at once with the error `publishConfirmed` rejects with.
 */
export function publishWithCallback(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish,
  onConfirm: (error: unknown) => void,
): void {
  try {
    channel.publish(exchange, routingKey, content, options, onConfirm);
  } catch (error) {
    const closed = error instanceof Error && error.name === "IllegalOperationError";
    onConfirm(
      closed
        ? error
        : new AmqpError(
            "PUBLISH_FAILED",
            `Cannot publish to ${describeTarget(exchange, routingKey)}: ${describeError(error)}`,
            { cause: error },
          ),
    );
  }
}

/** "queue 'orders'" or "exchange 'events' with routing key 'a.b'". */
export function describeTarget(exchange: string, routingKey: string): string {
  return exchange === ""
    ? `queue '${routingKey}'`
    : `exchange '${exchange}' with routing key '${routingKey}'`;
}
