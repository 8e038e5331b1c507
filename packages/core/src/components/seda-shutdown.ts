import { RoutekitError } from "../errors/errors.js";
import { reportConsumerFailure } from "../exchange/report-consumer-failure.js";
import { copyExchange } from "../exchange/runtime-exchange.js";
import type { Exchange } from "../model/exchange.js";
import type { BoundedQueue } from "./bounded-queue.js";
import type { ComponentContext, ShutdownParticipant } from "./component-context.js";
import type { SedaChannel, SedaItem } from "./seda-channel.js";

/** The error of a message sent to a seda queue after a stop gave up waiting. */
export function closedQueue(name: string, exchange: Exchange): RoutekitError {
  return new RoutekitError(
    "EXCHANGE_DROPPED",
    `Message ${exchange.id} not accepted by 'seda:${name}': the context is stopping and its stop timed out, so the queue takes no more messages`,
  );
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * What seda does when a stop runs out of time: every queued message is failed with an
 * EXCHANGE_DROPPED error — handed to its InOut producer, or run through the consuming route's error
 * handling (dead letter channel) when InOnly, and logged when still unhandled — and every producer
 * waiting for room is rejected at once. After the grace, InOut producers still waiting for a
 * reply from a route that ignored the abort are rejected too. Nothing is dropped silently.
 */
export function sedaShutdown(
  channels: Map<string, SedaChannel>,
  context: ComponentContext,
): ShutdownParticipant {
  // Dead-lettering a dropped message needs a live signal (the shutdown signal has fired); it
  // fires when the grace is over.
  let grace: AbortController | undefined;
  return {
    aborted(reason) {
      grace = new AbortController();
      const summaries: string[] = [];
      for (const channel of channels.values()) {
        const queues = [channel.shared, ...(channel.subscribers?.values() ?? [])];
        let dropped = 0;
        let rejected = 0;
        for (const queue of new Set(queues)) {
          rejected += queue.rejectWaiting(
            new RoutekitError(
              "EXCHANGE_DROPPED",
              `Message not accepted by 'seda:${channel.name}': it was waiting for room when the context's stop timed out (the queue is dropped at shutdown)`,
              { cause: reason },
            ),
          );
          for (const item of queue.takeAll()) {
            dropped++;
            drop(channel, queue, item, reason, grace.signal, context);
          }
        }
        if (dropped + rejected === 0) continue;
        const parts = [`${plural(dropped, "queued message")} dropped`];
        if (rejected > 0) parts.push(`${plural(rejected, "producer")} waiting for room rejected`);
        summaries.push(`seda:${channel.name}: ${parts.join(", ")}`);
      }
      return summaries.length === 0 ? undefined : summaries.join(", ");
    },
    abandoned() {
      grace?.abort(new RoutekitError("EXCHANGE_ABORTED", "The stop's grace is over"));
      grace = undefined;
      const summaries: string[] = [];
      for (const channel of channels.values()) {
        const waiting = [...channel.waiting];
        for (const reply of waiting) {
          reply.fail(
            new RoutekitError(
              "EXCHANGE_DROPPED",
              `Message ${reply.exchange.id} on 'seda:${channel.name}' was dropped at shutdown: its route was still running it when the context's stop gave up, so no reply will come`,
            ),
          );
        }
        if (waiting.length > 0)
          summaries.push(
            `seda:${channel.name}: ${plural(waiting.length, "caller")} waiting for a reply failed`,
          );
      }
      return summaries.length === 0 ? undefined : summaries.join(", ");
    },
  };
}

function drop(
  channel: SedaChannel,
  queue: BoundedQueue<SedaItem>,
  item: SedaItem,
  reason: Error,
  signal: AbortSignal,
  context: ComponentContext,
): void {
  const error = new RoutekitError(
    "EXCHANGE_DROPPED",
    `Message ${item.exchange.id} was dropped at shutdown: it was still queued on 'seda:${channel.name}' when the context's stop timed out`,
    { cause: reason },
  );
  if (item.done !== undefined) {
    // InOut: the producer receives the error.
    item.exchange.error = error;
    context.trackPending(-1);
    item.done(item.exchange);
    return;
  }
  const reject = channel.rejectors.get(queue) ?? channel.rejectors.values().next().value;
  if (reject === undefined) {
    context.trackPending(-1);
    context.logger.error(`seda:${channel.name}: ${error.message} (no route consumes the queue)`);
    return;
  }
  // InOnly: the consuming route's error handling (onException, dead letter channel) gets it.
  const copy = copyExchange(item.exchange, undefined, signal);
  copy.routeId = undefined;
  const settled = (): void => {
    context.trackPending(-1);
    reportConsumerFailure(context, copy, `seda:${channel.name}`, { kind: "dropped" });
  };
  const result = reject(copy, error);
  if (result === undefined) settled();
  else result.then(settled, settled);
}
