import type { ConfirmChannel, Options } from "amqplib";
import { AmqpError, describeError } from "./amqp-error.js";
import { isTransientFailure } from "./amqp-topology.js";
import { backoffDelay, pause, type ReconnectOptions } from "./backoff.js";
import type { ConnectionManager } from "./connection-manager.js";
import {
  confirmFailure,
  describeTarget,
  publishConfirmed,
  publishWithCallback,
} from "./publish-confirmed.js";

/** One message to publish. */
export interface PublishRequest {
  readonly exchange: string;
  readonly routingKey: string;
  readonly content: Buffer;
  readonly options: Options.Publish;
  /** Identifies `prepare`: it runs once per channel for each key. */
  readonly prepareKey: string;
  /** Declares the topology the message needs, on each new channel before the first publish. */
  readonly prepare: (channel: ConfirmChannel) => Promise<void>;
}

/** Hooks for a publisher's channel (the request-reply client consumes replies on it). */
export interface PublisherHooks {
  opened?(channel: ConfirmChannel): Promise<void>;
  closed?(channel: ConfirmChannel): void;
}

/**
 * Publishes with confirms on one channel of a managed connection. A publish that fails because
 * the channel or connection went away is published again on a new channel (at-least-once)
 * until its deadline; refusals (nack, unroutable, topology errors) fail at once.
 */
export class ConfirmPublisher {
  readonly #manager: ConnectionManager;
  readonly #reconnect: ReconnectOptions;
  readonly #hooks: PublisherHooks;
  readonly #returned = new Set<string>();
  #channel: ConfirmChannel | undefined;
  #opening: Promise<ConfirmChannel> | undefined;
  /** Per key: the declaration under way, or `true` once it is done on the current channel. */
  #prepared = new Map<string, Promise<void> | true>();
  #closed = false;

  constructor(manager: ConnectionManager, reconnect: ReconnectOptions, hooks: PublisherHooks = {}) {
    this.#manager = manager;
    this.#reconnect = reconnect;
    this.#hooks = hooks;
  }

  /** Publishes and resolves once the broker confirmed; gives up at `deadline` (epoch ms). */
  publish(request: PublishRequest, deadline: number, signal?: AbortSignal): Promise<void> {
    const channel = this.#channel;
    if (
      channel === undefined ||
      this.#closed ||
      signal?.aborted === true ||
      request.options.mandatory === true ||
      this.#prepared.get(request.prepareKey) !== true ||
      Date.now() >= deadline
    ) {
      return this.#publishRetrying(request, deadline, signal, undefined);
    }
    // The common case, one promise and one callback per message: the channel is open and the
    // topology declared.
    return new Promise((resolve, reject) => {
      const { exchange, routingKey, content, options } = request;
      publishWithCallback(channel, exchange, routingKey, content, options, (error) => {
        if (error === null || error === undefined) return resolve();
        const failure = confirmFailure(error, exchange, routingKey);
        if (isTransientFailure(failure)) {
          this.#publishRetrying(request, deadline, signal, failure).then(resolve, reject);
        } else reject(failure);
      });
    });
  }

  /**
   * Publishes until confirmed, on a new channel after a transient failure (`failed`: the error of
   * an attempt already made), until `deadline`.
   */
  async #publishRetrying(
    request: PublishRequest,
    deadline: number,
    signal: AbortSignal | undefined,
    failed: unknown,
  ): Promise<void> {
    let lastError: unknown = failed;
    let attempt = 1;
    if (failed !== undefined) await this.#backOff(attempt++, deadline, signal);
    for (; ; attempt++) {
      if (this.#closed) {
        throw new AmqpError(
          "PUBLISH_FAILED",
          `Cannot publish to ${target(request)}: the amqp component is stopped`,
        );
      }
      if (signal?.aborted) throw signal.reason;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        const last = lastError === undefined ? "" : ` (last error: ${describeError(lastError)})`;
        throw new AmqpError(
          "PUBLISH_TIMEOUT",
          `No confirm from the broker for ${target(request)} in time${last}`,
          {
            cause: lastError,
          },
        );
      }
      try {
        const channel = this.#channel ?? (await this.#open(remaining, signal));
        const preparing = this.#prepare(channel, request);
        if (preparing !== undefined) await preparing;
        await publishConfirmed(
          channel,
          request.exchange,
          request.routingKey,
          request.content,
          request.options,
        );
        const messageId = request.options.messageId;
        if (
          request.options.mandatory === true &&
          messageId !== undefined &&
          this.#returned.delete(messageId)
        ) {
          throw new AmqpError(
            "PUBLISH_UNROUTABLE",
            `No queue is bound to receive the message sent to ${target(request)}`,
          );
        }
        return;
      } catch (error) {
        if (!isTransientFailure(error)) throw error;
        lastError = error;
        await this.#backOff(attempt, deadline, signal);
      }
    }
  }

  /** The pause after a failed attempt, cut short by the deadline. */
  #backOff(attempt: number, deadline: number, signal: AbortSignal | undefined): Promise<void> {
    return pause(
      Math.min(backoffDelay(this.#reconnect, attempt), Math.max(0, deadline - Date.now())),
      signal,
    );
  }

  /** Closes the channel; later publishes fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const channel = this.#channel;
    this.#channel = undefined;
    if (channel !== undefined) await channel.close().catch(() => {});
  }

  /** The declaration the request still waits for on this channel; undefined once it is done. */
  #prepare(channel: ConfirmChannel, request: PublishRequest): Promise<void> | undefined {
    const key = request.prepareKey;
    const prepared = this.#prepared.get(key);
    if (prepared === true) return undefined;
    if (prepared !== undefined) return prepared;
    const map = this.#prepared;
    const preparing = request.prepare(channel);
    preparing.then(
      () => {
        if (map.get(key) === preparing) map.set(key, true);
      },
      () => {
        if (map.get(key) === preparing) map.delete(key);
      },
    );
    map.set(key, preparing);
    return preparing;
  }

  #open(timeoutMs: number, signal: AbortSignal | undefined): Promise<ConfirmChannel> {
    if (this.#opening === undefined) {
      const opening = this.#createChannel(timeoutMs, signal).finally(() => {
        this.#opening = undefined;
      });
      this.#opening = opening;
    }
    return this.#opening;
  }

  async #createChannel(timeoutMs: number, signal: AbortSignal | undefined): Promise<ConfirmChannel> {
    const connection = await this.#manager.acquire(timeoutMs, signal);
    const channel = await connection.createConfirmChannel();
    channel.on("error", () => {});
    channel.on("return", (message: { properties: { messageId?: unknown } }) => {
      if (typeof message.properties.messageId === "string") this.#returned.add(message.properties.messageId);
    });
    channel.on("close", () => {
      if (this.#channel !== channel) return;
      this.#channel = undefined;
      this.#hooks.closed?.(channel);
    });
    try {
      await this.#hooks.opened?.(channel);
    } catch (error) {
      await channel.close().catch(() => {});
      throw error;
    }
    this.#prepared = new Map();
    this.#channel = channel;
    if (this.#closed) await this.close();
    return channel;
  }
}

function target(request: PublishRequest): string {
  return describeTarget(request.exchange, request.routingKey);
}
