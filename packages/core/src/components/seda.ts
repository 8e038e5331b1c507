import { RoutekitError } from "../errors/errors.js";
import { reportConsumerFailure } from "../exchange/report-consumer-failure.js";
import { copyExchange, runtime } from "../exchange/runtime-exchange.js";
import { moveBody } from "../exchange/wire-exchange.js";
import type { Exchange } from "../model/exchange.js";
import { defineServiceKey } from "../model/service-key.js";
import { BoundedQueue } from "./bounded-queue.js";
import { type ConsumerRoute, defineComponent, type Endpoint, type RouteProcessor } from "./component.js";
import type { ComponentContext } from "./component-context.js";
import type { OptionSchema, OptionsOf } from "./endpoint-options.js";
import type { SedaChannel, SedaItem, WaitingReply } from "./seda-channel.js";
import { closedQueue, sedaShutdown } from "./seda-shutdown.js";

/** The queues of a context, by name, and whether seda takes part in the context's stop yet. */
const sedaQueues = defineServiceKey("routekit.seda", () => ({
  channels: new Map<string, SedaChannel>(),
  inShutdown: false,
}));

/** The queues of a context; the first call makes seda take part in the context's stop. */
function channelsOf(context: ComponentContext): Map<string, SedaChannel> {
  const queues = context.service(sedaQueues);
  if (!queues.inShutdown) {
    queues.inShutdown = true;
    context.addShutdownParticipant(sedaShutdown(queues.channels, context));
  }
  return queues.channels;
}

function settle(result: void | Promise<void>, then: () => void): void | Promise<void> {
  if (result === undefined) return then();
  return result.then(then);
}

/** Copies the consumer's outcome back into the producer's exchange (InOut). */
function copyBack(from: Exchange, to: Exchange): void {
  moveBody(from, to);
  to.headers = from.headers;
  to.error = from.error;
  const source = runtime(from);
  const target = runtime(to);
  target.failure = source.failure;
  target.exhaustedIn = source.exhaustedIn;
}

const sedaOptions = {
  size: { type: "integer", default: 1000, min: 1 },
  concurrentConsumers: { type: "integer", default: 1, min: 1, max: 1000 },
  blockWhenFull: { type: "boolean", default: true },
  discardWhenFull: { type: "boolean", default: false },
  offerTimeout: { type: "integer", default: 0, min: 0 },
  waitForTaskToComplete: {
    type: "enum",
    values: ["IfReplyExpected", "Always", "Never"],
    default: "IfReplyExpected",
  },
  timeout: { type: "integer", default: 30_000, min: 0 },
  multipleConsumers: { type: "boolean", default: false },
} as const satisfies OptionSchema;

type SedaOptions = OptionsOf<typeof sedaOptions>;

/** One endpoint of a queue: its name, its options, the queue's channel and the context. */
interface SedaSide {
  readonly name: string;
  readonly options: SedaOptions;
  readonly target: SedaChannel;
  readonly context: ComponentContext;
}

/**
 * `seda:name` — an in-memory bounded queue between routes. Producers wait when it is full
 * (`blockWhenFull`, bounded by `offerTimeout`) or drop (`discardWhenFull`); InOut producers
 * wait for the consumer (`waitForTaskToComplete`). Graceful stop drains the queue first.
 */
export const sedaComponent = defineComponent({
  scheme: "seda",
  traits: { inProcess: true, messagingSystem: "routekit" },
  options: sedaOptions,
  createEndpoint(address, context): Endpoint {
    const name = address.path;
    if (name === "")
      throw new RoutekitError(
        "URI_INVALID",
        `Endpoint '${address.uri}': seda needs a name, e.g. 'seda:orders'`,
      );
    const side: SedaSide = {
      name,
      options: address.options,
      target: channelFor(address.uri, name, address.options, context),
      context,
    };
    return {
      uri: address.uri,
      send: (exchange) => sendToQueue(side, exchange),
      createConsumer: (processor, route) => createSedaConsumer(side, processor, route),
    };
  },
});

/** The channel of queue `name`, made on first use; every endpoint of one queue must agree on size. */
function channelFor(uri: string, name: string, options: SedaOptions, context: ComponentContext): SedaChannel {
  const channels = channelsOf(context);
  let channel = channels.get(name);
  if (channel === undefined) {
    channel = {
      name,
      capacity: options.size,
      shared: new BoundedQueue(options.size),
      subscribers: undefined,
      rejectors: new Map(),
      waiting: new Set(),
    };
    channels.set(name, channel);
  } else if (uri.includes("size=") && channel.capacity !== options.size) {
    throw new RoutekitError(
      "ENDPOINT_OPTION_INVALID",
      `Endpoint '${uri}': queue 'seda:${name}' already exists with size ${channel.capacity}; every endpoint of one queue must agree on size`,
    );
  }
  if (options.multipleConsumers) channel.subscribers ??= new Map();
  return channel;
}

/** Puts one item on one queue: at once when there is room, else as `blockWhenFull` / `discardWhenFull` say. */
function offer(side: SedaSide, queue: BoundedQueue<SedaItem>, item: SedaItem): void | Promise<void> {
  const { name, options, target, context } = side;
  if (queue.tryOffer(item)) return;
  if (options.discardWhenFull) {
    context.trackPending(-1);
    context.logger.warn(
      `seda:${name} is full (size ${target.capacity}): message ${item.exchange.id} discarded (discardWhenFull)`,
    );
    return;
  }
  if (!options.blockWhenFull) {
    context.trackPending(-1);
    throw new RoutekitError(
      "QUEUE_FULL",
      `Queue 'seda:${name}' is full (size ${target.capacity}) and blockWhenFull=false`,
    );
  }
  return queue.offerWhenRoom(item, options.offerTimeout, `seda:${name}`).catch((error: unknown) => {
    context.trackPending(-1);
    throw error;
  });
}

/** Offers the exchange to the shared queue, or a copy to each subscriber's (`multipleConsumers`). */
function enqueue(side: SedaSide, exchange: Exchange, done: SedaItem["done"]): void | Promise<void> {
  const target = side.target;
  const queues = target.subscribers === undefined ? [target.shared] : [...target.subscribers.values()];
  if (queues.length === 0) return;
  let pending: Promise<void>[] | undefined;
  queues.forEach((queue, index) => {
    side.context.trackPending(1);
    const copy = index === 0 ? exchange : copyExchange(exchange);
    const result = offer(side, queue, { exchange: copy, done: index === 0 ? done : undefined });
    if (result !== undefined) {
      pending ??= [];
      pending.push(result);
    }
  });
  if (pending !== undefined) return Promise.all(pending).then(() => undefined);
}

/** A producer's send: queued on its own (InOnly), or waiting for the consumer's outcome. */
function sendToQueue(side: SedaSide, exchange: Exchange): void | Promise<void> {
  const { name, options, target, context } = side;
  if (context.shutdownSignal.aborted) throw closedQueue(name, exchange);
  const wait =
    options.waitForTaskToComplete === "Always" ||
    (options.waitForTaskToComplete === "IfReplyExpected" && exchange.pattern === "InOut");
  const sent = runtime(exchange);
  if (!wait && target.subscribers === undefined && sent.handedOver && sent.routeId === undefined) {
    // context.send() hands the exchange over: when the queue takes it at once, no copy is
    // needed (the sender only checks for a synchronous failure, before any consumer ran).
    // Not once a route has it: that route goes on changing it after this send.
    context.trackPending(1);
    if (target.shared.tryOffer({ exchange, done: undefined })) return;
    context.trackPending(-1);
  }
  if (!wait) {
    // Nobody waits for an InOnly message: it lives on its own, bound to the context's
    // shutdown, not to the producer's deadline (which ends with the producer's exchange).
    const copy = copyExchange(exchange, undefined, context.shutdownSignal);
    copy.routeId = undefined;
    copy.pattern = "InOnly";
    return enqueue(side, copy, undefined);
  }
  return waitForReply(side, exchange);
}

/** Queues a copy and settles when the consumer finished it (its outcome copied back), or at `timeout`. */
function waitForReply(side: SedaSide, exchange: Exchange): Promise<void> {
  const { name, options, target } = side;
  const copy = copyExchange(exchange);
  copy.routeId = undefined;
  return new Promise<void>((resolve, reject) => {
    const waiting: WaitingReply = {
      exchange: copy,
      fail: (error) => {
        finish();
        reject(error);
      },
    };
    const finish = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      target.waiting.delete(waiting);
    };
    const timer =
      options.timeout > 0
        ? setTimeout(
            () =>
              waiting.fail(
                new RoutekitError(
                  "EXCHANGE_TIMEOUT",
                  `No reply from 'seda:${name}' within ${options.timeout} ms (timeout)`,
                ),
              ),
            options.timeout,
          )
        : undefined;
    target.waiting.add(waiting);
    const accepted = enqueue(side, copy, (finished) => {
      finish();
      copyBack(finished, exchange);
      resolve();
    });
    if (accepted !== undefined) accepted.catch(waiting.fail);
  });
}

/** The consumer of a queue: `concurrentConsumers` pumps draining the route's queue. */
function createSedaConsumer(side: SedaSide, processor: RouteProcessor, route: ConsumerRoute) {
  const { name, options, target, context } = side;
  let running = false;
  let queue = target.shared;
  const pumps: Array<() => void> = [];
  // One pump per concurrent consumer: drains synchronously while items are there, waits on
  // a queued wake-up when empty, and on a promise only when the route itself is async.
  const createPump = (): (() => void) => {
    const pump = (): void => {
      while (running) {
        const item = queue.poll();
        if (item === undefined) {
          queue.whenItem(pump);
          return;
        }
        const outcome = settle(processor(item.exchange), () => {
          context.trackPending(-1);
          if (item.done !== undefined) item.done(item.exchange);
          else reportConsumerFailure(context, item.exchange, `seda:${name}`, { kind: "dropped" });
        });
        if (outcome !== undefined) {
          outcome.then(pump, pump);
          return;
        }
      }
    };
    return pump;
  };
  return {
    internal: true,
    start() {
      if (running) return;
      running = true;
      if (target.subscribers !== undefined) {
        queue = target.subscribers.get(route.routeId) ?? new BoundedQueue<SedaItem>(target.capacity);
        target.subscribers.set(route.routeId, queue);
      }
      target.rejectors.set(queue, route.reject);
      for (let index = 0; index < options.concurrentConsumers; index++) {
        const pump = createPump();
        pumps.push(pump);
        queue.whenItem(pump);
      }
    },
    stop() {
      running = false;
      for (const pump of pumps.splice(0)) queue.cancel(pump);
      if (target.rejectors.get(queue) === route.reject) target.rejectors.delete(queue);
      target.subscribers?.delete(route.routeId);
    },
  };
}
