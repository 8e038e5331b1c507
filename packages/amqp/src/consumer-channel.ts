import type { ConfirmChannel, ConsumeMessage } from "amqplib";
import { declareForConsumer } from "./amqp-topology.js";
import { backoffDelay, pause, type ReconnectOptions } from "./backoff.js";
import type { ConnectionManager } from "./connection-manager.js";
import { DeliveryAcks } from "./delivery-acks.js";
import { type DeliveryTarget, handleDelivery } from "./handle-delivery.js";

/**
 * One consuming channel of a route: declares the topology, consumes with the endpoint's
 * prefetch, runs deliveries, and comes back on a new channel (with backoff) whenever the
 * channel or the connection is lost, until it is cancelled.
 */
export class ConsumerChannel {
  readonly #connections: () => ConnectionManager;
  readonly #reconnect: ReconnectOptions;
  readonly #target: DeliveryTarget;
  /** Deliveries whose handling has not settled yet, and who waits for there to be none. */
  #running = 0;
  #idle: { promise: Promise<void>; resolve: () => void } | undefined;
  readonly #settled = (): void => {
    this.#running--;
    if (this.#running === 0 && this.#idle !== undefined) {
      this.#idle.resolve();
      this.#idle = undefined;
    }
  };
  #stopping = new AbortController();
  #active = false;
  #channel: ConfirmChannel | undefined;
  /** The acknowledgements of `#channel`. */
  #acks: DeliveryAcks | undefined;
  #consumerTag: string | undefined;
  #recovering: Promise<void> | undefined;

  constructor(connections: () => ConnectionManager, reconnect: ReconnectOptions, target: DeliveryTarget) {
    this.#connections = connections;
    this.#reconnect = reconnect;
    this.#target = target;
  }

  /** Starts consuming; rejects when the broker cannot be reached within `timeoutMs` or refuses the topology. */
  async open(timeoutMs: number): Promise<void> {
    this.#active = true;
    this.#stopping = new AbortController();
    await this.#connect(timeoutMs);
  }

  /** Stops taking deliveries (the broker stops sending; messages it sent meanwhile are handed back). */
  async cancel(): Promise<void> {
    this.#active = false;
    this.#stopping.abort();
    const channel = this.#channel;
    const consumerTag = this.#consumerTag;
    this.#consumerTag = undefined;
    if (channel !== undefined && consumerTag !== undefined) await channel.cancel(consumerTag).catch(() => {});
  }

  /** Waits for deliveries in progress to settle (ack, re-publish, dead-letter), then closes the channel. */
  async close(): Promise<void> {
    await this.#recovering;
    await this.#whenIdle();
    // The acks of the last deliveries go out before the channel closes.
    this.#acks?.flush();
    const channel = this.#channel;
    this.#channel = undefined;
    this.#acks = undefined;
    if (channel !== undefined) await channel.close().catch(() => {});
  }

  async #connect(timeoutMs: number): Promise<void> {
    const connection = await this.#connections().acquire(timeoutMs, this.#stopping.signal);
    const channel = await connection.createConfirmChannel();
    channel.on("error", () => {});
    channel.on("close", () => this.#closed(channel));
    try {
      await channel.prefetch(this.#target.config.options.prefetch);
      const queue = await declareForConsumer(channel, this.#target.config);
      // Deliveries may arrive before `consume` resolves: the channel is ours from here on.
      const acks = new DeliveryAcks(channel);
      this.#channel = channel;
      this.#acks = acks;
      const reply = await channel.consume(queue, (message) => this.#deliver(channel, acks, queue, message));
      this.#consumerTag = reply.consumerTag;
    } catch (error) {
      if (this.#channel === channel) {
        this.#channel = undefined;
        this.#acks = undefined;
      }
      await channel.close().catch(() => {});
      throw error;
    }
    if (!this.#active) await this.cancel();
  }

  #deliver(channel: ConfirmChannel, acks: DeliveryAcks, queue: string, message: ConsumeMessage | null): void {
    if (message === null) {
      // The broker cancelled the consumer (e.g. the queue was deleted): start over.
      if (this.#channel === channel && this.#active) channel.close().catch(() => {});
      return;
    }
    if (!this.#active) {
      try {
        channel.nack(message, false, true);
      } catch {}
      return;
    }
    acks.track(message);
    this.#running++;
    // handleDelivery never rejects.
    handleDelivery(channel, acks, queue, message, this.#target).then(this.#settled);
  }

  /** Resolves once no delivery is being handled. */
  #whenIdle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    if (this.#idle === undefined) {
      let resolve = (): void => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.#idle = { promise, resolve };
    }
    return this.#idle.promise;
  }

  #closed(channel: ConfirmChannel): void {
    if (this.#channel !== channel) return;
    this.#channel = undefined;
    this.#acks = undefined;
    this.#consumerTag = undefined;
    if (this.#active && this.#recovering === undefined) {
      this.#recovering = this.#recover().finally(() => {
        this.#recovering = undefined;
      });
    }
  }

  async #recover(): Promise<void> {
    for (let attempt = 1; this.#active; attempt++) {
      try {
        await this.#connect(Number.POSITIVE_INFINITY);
        return;
      } catch {
        await pause(backoffDelay(this.#reconnect, attempt), this.#stopping.signal);
      }
    }
  }
}
