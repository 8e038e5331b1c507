import { RoutekitError } from "../errors/errors.js";
import { reportConsumerFailure } from "../exchange/report-consumer-failure.js";
import type { Exchange, RouteContext } from "../model/exchange.js";
import type { RouteAspectHandler } from "../model/route-aspect.js";
import type { RouteDefinition } from "../model/route-definition.js";
import { defineServiceKey } from "../model/service-key.js";
import { BoundedQueue } from "./bounded-queue.js";
import { type ConsumerRoute, defineComponent, type RouteProcessor } from "./component.js";
import type { ComponentContext } from "./component-context.js";

declare module "../exchange/events.js" {
  interface RoutekitEvents {
    /** The Observable a route consumes from completed: the route stays started, and idle. */
    "route-source-completed": { routeId: string; uri: string };
    /** The Observable a route consumes from failed: the route stays started, and idle. */
    "route-source-failed": { routeId: string; uri: string; error: Error };
  }
}

/** What an Observable source calls: rxjs's `Observer`, or any object of this shape. */
export interface SourceObserver<T> {
  next(value: T): void;
  error(error: unknown): void;
  complete(): void;
}

/** Anything with `subscribe(observer)` returning `{ unsubscribe() }`: an rxjs Observable is one. */
export interface ObservableLike<T> {
  subscribe(observer: SourceObserver<T>): { unsubscribe(): void };
}

/** Options of `from(observable$, options)`. */
export interface ObservableSourceOptions {
  /**
   * Values that may wait while the route processes an earlier one (default 1000). A value that
   * finds the buffer full fails as an exchange of its own, through the route's error handling.
   */
  bufferSize?: number;
}

/** The route aspect under which `from(observable$)` records its Observable. */
export const OBSERVABLE_SOURCE_ASPECT = "observableSource";

const DEFAULT_BUFFER_SIZE = 1000;
let sourceCount = 0;

/** True for an object with a `subscribe` method (an Observable), which `from()` consumes. */
export function isObservableLike(value: unknown): value is ObservableLike<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { subscribe?: unknown }).subscribe === "function"
  );
}

/** A fresh `observable:` URI for one `from(observable$)`, with its options. */
export function observableSourceUri(options: ObservableSourceOptions | undefined): string {
  const uri = `observable:source-${++sourceCount}`;
  const bufferSize = options?.bufferSize;
  return bufferSize === undefined ? uri : `${uri}?bufferSize=${String(bufferSize)}`;
}

const observableSources = defineServiceKey(
  "routekit.observable-sources",
  () => new Map<string, ObservableLike<unknown>>(),
);

/** The Observables of a context's routes, by their `from` URI; the aspect handler keeps it. */
function sourcesOf(context: RouteContext): Map<string, ObservableLike<unknown>> {
  return context.service(observableSources);
}

/** Keeps each route's Observable while the route belongs to the context. */
export const observableSourceAspect: RouteAspectHandler = {
  added(context: RouteContext, route: RouteDefinition, aspect: unknown) {
    sourcesOf(context).set(route.from, aspect as ObservableLike<unknown>);
  },
  removed(context: RouteContext, route: RouteDefinition) {
    sourcesOf(context).delete(route.from);
  },
  describe: () => "Observable",
};

/**
 * `observable:` — the endpoint behind `from(observable$)`: each value the Observable emits is
 * an InOnly exchange (the value its body), processed one at a time in order; values arriving
 * meanwhile wait in a buffer of `bufferSize`. Completion or an error leaves the route started and
 * idle (logged, with a `route-source-completed` / `route-source-failed` event). Stopping the
 * route unsubscribes, and the values still waiting fail through the route's error handling;
 * starting it again subscribes again.
 */
export const observableComponent = defineComponent({
  scheme: "observable",
  options: {
    bufferSize: { type: "integer", default: DEFAULT_BUFFER_SIZE, min: 1 },
  },
  createEndpoint(address, context) {
    return {
      uri: address.uri,
      send() {
        throw new RoutekitError(
          "ROUTE_INVALID",
          `Endpoint '${address.uri}': an Observable source can only be consumed from, not sent to`,
        );
      },
      createConsumer(processor, route) {
        return new ObservableConsumer(context, address.uri, address.options.bufferSize, processor, route);
      },
    };
  },
});

class ObservableConsumer {
  readonly #context: ComponentContext;
  readonly #uri: string;
  readonly #bufferSize: number;
  readonly #processor: RouteProcessor;
  readonly #route: ConsumerRoute;
  #queue: BoundedQueue<unknown> | undefined;
  #subscription: { unsubscribe(): void } | undefined;
  /** The buffer being drained (a restart makes a new one while the old drain may still await). */
  #draining: BoundedQueue<unknown> | undefined;

  constructor(
    context: ComponentContext,
    uri: string,
    bufferSize: number,
    processor: RouteProcessor,
    route: ConsumerRoute,
  ) {
    this.#context = context;
    this.#uri = uri;
    this.#bufferSize = bufferSize;
    this.#processor = processor;
    this.#route = route;
  }

  start(): void {
    const source = sourcesOf(this.#context as RouteContext).get(this.#uri);
    if (source === undefined) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route '${this.#route.routeId}' from(${this.#uri}): no Observable was given; write from(observable$) in the route`,
      );
    }
    const queue = new BoundedQueue<unknown>(this.#bufferSize);
    this.#queue = queue;
    const subscription = source.subscribe({
      next: (value) => {
        if (this.#queue === queue) this.#offer(queue, value);
      },
      error: (error) => {
        if (this.#queue === queue) this.#ended(error instanceof Error ? error : new Error(String(error)));
      },
      complete: () => {
        if (this.#queue === queue) this.#ended(undefined);
      },
    });
    // A stop during a synchronous subscribe (a value's route stopped it) has nothing left to end.
    if (this.#queue === queue) this.#subscription = subscription;
    else subscription.unsubscribe();
  }

  async stop(): Promise<void> {
    const queue = this.#queue;
    this.#queue = undefined;
    const subscription = this.#subscription;
    this.#subscription = undefined;
    subscription?.unsubscribe();
    if (queue === undefined) return;
    const dropped = queue.takeAll();
    if (dropped.length === 0) return;
    const reason = new RoutekitError(
      "EXCHANGE_DROPPED",
      `Route '${this.#route.routeId}' from(${this.#uri}) stopped before this value was processed`,
    );
    await Promise.all(dropped.map((value) => this.#fail(value, reason)));
  }

  #offer(queue: BoundedQueue<unknown>, value: unknown): void {
    if (!queue.tryOffer(value)) {
      void this.#fail(
        value,
        new RoutekitError(
          "QUEUE_FULL",
          `Route '${this.#route.routeId}' from(${this.#uri}): ${this.#bufferSize} values were already waiting (bufferSize); this one was not processed`,
        ),
      );
      return;
    }
    if (this.#draining !== queue) void this.#drain(queue);
  }

  /** Processes the waiting values one at a time, in order, until the buffer is empty or stopped. */
  async #drain(queue: BoundedQueue<unknown>): Promise<void> {
    this.#draining = queue;
    try {
      for (;;) {
        if (this.#queue !== queue || queue.size === 0) return;
        const exchange = this.#exchange(queue.poll());
        const result = this.#processor(exchange);
        if (result !== undefined) await result;
        this.#report(exchange);
      }
    } finally {
      if (this.#draining === queue) this.#draining = undefined;
    }
  }

  /** A value the route will never process fails through its error handling. */
  async #fail(value: unknown, reason: Error): Promise<void> {
    const exchange = this.#exchange(value);
    await this.#route.reject(exchange, reason);
    this.#report(exchange);
  }

  #ended(error: Error | undefined): void {
    const routeId = this.#route.routeId;
    const uri = this.#uri;
    const { events, logger } = this.#context;
    if (error === undefined) {
      logger.info(`Route '${routeId}' from(${uri}): the Observable completed; the route stays started, idle`);
      if (events.has("route-source-completed")) events.emit("route-source-completed", { routeId, uri });
      return;
    }
    logger.error(
      `Route '${routeId}' from(${uri}): the Observable failed: ${error.message}; the route stays started, idle`,
    );
    if (events.has("route-source-failed")) events.emit("route-source-failed", { routeId, uri, error });
  }

  #exchange(value: unknown): Exchange {
    const exchange = this.#context.createExchange({ body: value, pattern: "InOnly" });
    exchange.fromEndpoint = this.#uri;
    return exchange;
  }

  #report(exchange: Exchange): void {
    reportConsumerFailure(this.#context, exchange, this.#uri, { kind: "dropped" });
  }
}
