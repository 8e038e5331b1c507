import type { Consumer, RouteContext } from "@routekit/core";
import type { RouteProcessor } from "@routekit/core/internal";
import type { AmqpEndpointConfig } from "./amqp-options.js";
import type { ReconnectOptions } from "./backoff.js";
import type { ConnectionManager } from "./connection-manager.js";
import { ConsumerChannel } from "./consumer-channel.js";
import { deleteIdleDeadLetterQueue } from "./delete-idle-dead-letter-queue.js";

/** What a consumer needs from its component. */
export interface ConsumerServices {
  readonly reconnect: ReconnectOptions;
  /** How long `start` waits for the broker. */
  readonly connectTimeoutMs: number;
  connection(): ConnectionManager;
  /** Called on start so the component can drain the consumer before closing connections. */
  track(consumer: AmqpConsumer): void;
}

/**
 * Consumes an `amqp:` endpoint with `concurrentConsumers` channels. `stop` cancels the broker
 * consumers (no new deliveries) and closes the channels once the deliveries in progress have
 * finished and settled; the component awaits that (`drain`) before closing the connections.
 */
export class AmqpConsumer implements Consumer {
  readonly #channels: ConsumerChannel[];
  readonly #services: ConsumerServices;
  readonly #config: AmqpEndpointConfig;
  #active = false;
  /** True from a start until the stop that deletes the idle temporary dead-letter queue. */
  #started = false;
  #draining: Promise<void> | undefined;

  constructor(
    config: AmqpEndpointConfig,
    processor: RouteProcessor,
    routeId: string,
    context: RouteContext,
    services: ConsumerServices,
  ) {
    this.#services = services;
    this.#config = config;
    const target = { config, routeId, context, processor, active: () => this.#active };
    this.#channels = Array.from(
      { length: config.options.concurrentConsumers },
      () => new ConsumerChannel(() => services.connection(), services.reconnect, target),
    );
  }

  async start(): Promise<void> {
    await this.#draining;
    this.#active = true;
    this.#services.track(this);
    try {
      await Promise.all(this.#channels.map((channel) => channel.open(this.#services.connectTimeoutMs)));
      this.#started = true;
    } catch (error) {
      await this.stop();
      await this.drain();
      throw error;
    }
  }

  /**
   * Cancels the broker consumers; the channels close once the deliveries in progress settled,
   * and then an idle dead-letter queue of a temporary queue is deleted.
   */
  async stop(): Promise<void> {
    this.#active = false;
    const started = this.#started;
    this.#started = false;
    await Promise.all(this.#channels.map((channel) => channel.cancel()));
    // A second stop (the component's close after the route's stop) waits for the first one too.
    const previous = this.#draining;
    const draining = Promise.all(this.#channels.map((channel) => channel.close())).then(async () => {
      await previous;
      if (started) await deleteIdleDeadLetterQueue(this.#services.connection(), this.#config);
    });
    this.#draining = draining;
  }

  /** Resolves when the deliveries in progress at the last stop settled and the channels closed. */
  drain(): Promise<void> {
    return this.#draining ?? Promise.resolve();
  }
}
