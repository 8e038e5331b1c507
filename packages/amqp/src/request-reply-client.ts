import { randomUUID } from "node:crypto";
import type { ConfirmChannel, ConsumeMessage } from "amqplib";
import { AmqpError } from "./amqp-error.js";
import type { ReconnectOptions } from "./backoff.js";
import { ConfirmPublisher, type PublishRequest } from "./confirm-publisher.js";
import type { ConnectionManager } from "./connection-manager.js";
import { describeTarget } from "./publish-confirmed.js";

/** RabbitMQ's direct reply-to pseudo-queue: replies come back on the channel that sent the request. */
const DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";

interface PendingRequest {
  resolve(message: ConsumeMessage): void;
  reject(error: unknown): void;
}

/**
 * Request-reply over direct reply-to: publishes the request (confirmed) with a correlation id
 * and waits for the reply carrying it. The request expires in its queue when the caller stops
 * waiting, so nobody works on an answer no one reads.
 */
export class RequestReplyClient {
  readonly #pending = new Map<string, PendingRequest>();
  readonly #publisher: ConfirmPublisher;

  constructor(manager: ConnectionManager, reconnect: ReconnectOptions) {
    this.#publisher = new ConfirmPublisher(manager, reconnect, {
      opened: (channel) => this.#consumeReplies(channel),
      closed: () => this.#failAll(),
    });
  }

  /** Sends the request and resolves with the reply message; rejects after `timeoutMs`. */
  request(request: PublishRequest, timeoutMs: number, signal?: AbortSignal): Promise<ConsumeMessage> {
    const correlationId = randomUUID();
    const abort = new AbortController();
    const where = describeTarget(request.exchange, request.routingKey);
    return new Promise<ConsumeMessage>((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#pending.delete(correlationId);
        abort.abort();
      };
      const timer = setTimeout(() => {
        finish();
        reject(new AmqpError("REQUEST_TIMEOUT", `No reply from ${where} within ${timeoutMs} ms`));
      }, timeoutMs);
      const onAbort = (): void => {
        finish();
        reject(signal?.reason);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(correlationId, {
        resolve: (message) => {
          finish();
          resolve(message);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      });
      const options = {
        ...request.options,
        correlationId,
        replyTo: DIRECT_REPLY_TO,
        expiration: String(timeoutMs),
      };
      this.#publisher
        .publish({ ...request, options }, Date.now() + timeoutMs, abort.signal)
        .catch((error: unknown) => {
          this.#pending.get(correlationId)?.reject(error);
        });
    });
  }

  /** Fails pending requests and closes the channel. */
  async close(): Promise<void> {
    this.#failAll();
    await this.#publisher.close();
  }

  async #consumeReplies(channel: ConfirmChannel): Promise<void> {
    await channel.consume(
      DIRECT_REPLY_TO,
      (message) => {
        const correlationId = message?.properties.correlationId;
        if (typeof correlationId === "string")
          this.#pending.get(correlationId)?.resolve(message as ConsumeMessage);
      },
      { noAck: true },
    );
  }

  #failAll(): void {
    for (const pending of [...this.#pending.values()]) {
      pending.reject(
        new AmqpError(
          "CONNECTION_FAILED",
          "The connection to RabbitMQ was lost before the reply arrived; the request may or may not have been processed",
        ),
      );
    }
  }
}
