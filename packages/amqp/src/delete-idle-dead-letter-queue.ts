import type { AmqpEndpointConfig } from "./amqp-options.js";
import type { ConnectionManager } from "./connection-manager.js";
import { consumesTemporaryQueue, deadLetterQueueOf } from "./dead-letter-queue.js";

/** How long a stopping consumer spends on deleting its temporary dead-letter queue. */
const DELETE_LIMIT_MS = 2000;

/**
 * After a consumer of a temporary queue (`autoDelete`, or a private queue) stopped: deletes
 * its dead-letter queue if it is empty and nobody consumes it. The broker deletes the
 * temporary queue itself, but never an auto-delete queue that had no consumer, so an unused
 * `NAME.dlq` would stay behind. One holding dead letters is kept (it goes once a consumer of it
 * leaves); another process still consuming the queue declares it again before dead-lettering.
 * Best effort and bounded: failures (a broker gone, the queue not empty) are ignored, and
 * without an open connection nothing is tried.
 */
export async function deleteIdleDeadLetterQueue(
  connections: ConnectionManager,
  config: AmqpEndpointConfig,
): Promise<void> {
  const deadLetterQueue = deadLetterQueueOf(config);
  // Only on the open connection: a stopping consumer does not reconnect to tidy up.
  const connection = connections.current;
  if (deadLetterQueue === undefined || !consumesTemporaryQueue(config) || connection === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DELETE_LIMIT_MS);
  });
  const work = (async () => {
    const channel = await connection.createChannel();
    // A queue that is not empty or has consumers closes the channel with 406: keep the queue.
    channel.on("error", () => {});
    try {
      await channel.deleteQueue(deadLetterQueue, { ifEmpty: true, ifUnused: true });
    } finally {
      await channel.close().catch(() => {});
    }
  })().catch(() => {});
  await Promise.race([work, limit]);
  clearTimeout(timer);
}
