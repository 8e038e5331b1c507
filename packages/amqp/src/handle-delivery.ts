import { type Exchange, isRetryable, type RouteContext } from "@routekit/core";
import {
  headerRedactor,
  messageOf,
  type RouteProcessor,
  reportConsumerFailure,
  type WireBody,
  wireBodyOf,
} from "@routekit/core/internal";
import type { ConfirmChannel, ConsumeMessage } from "amqplib";
import { type EncodedBody, encodeExchangeBody, toAmqpHeaders, wireBodyDecoder } from "./amqp-codec.js";
import { AmqpError } from "./amqp-error.js";
import { type AmqpPropertyName, amqpHeader, ERROR_REPLY_TYPE } from "./amqp-headers.js";
import type { AmqpEndpointConfig } from "./amqp-options.js";
import { declareDeadLetterQueue, isTransientFailure } from "./amqp-topology.js";
import { pause } from "./backoff.js";
import { consumesDeadLetterQueue } from "./dead-letter-queue.js";
import type { DeliveryAcks } from "./delivery-acks.js";
import { publishConfirmed } from "./publish-confirmed.js";
import { republishOptions } from "./republish-options.js";

/** How long a message whose retry or dead letter the broker refused waits before it is requeued. */
const REFUSAL_PAUSE_MS = 1000;

/** What a consumer channel hands to each delivery. */
export interface DeliveryTarget {
  readonly config: AmqpEndpointConfig;
  readonly routeId: string;
  readonly context: RouteContext;
  readonly processor: RouteProcessor;
  /** False once the consumer was stopped. */
  active(): boolean;
}

/**
 * Runs one delivery through the route and settles it: ack after success (and after the reply
 * for a request). The body is left in its wire form, decoded by its first read: a route that
 * never reads it sends the same bytes on. A body that cannot be decoded fails the step that reads
 * it; unless the route's error handler deals with that, the message is dead-lettered at once, as
 * it would fail the same way every time. On another failure re-publish with a raised redelivery count, or dead-letter when
 * redeliveries are used up (a consumer of a dead-letter queue does not redeliver: it
 * dead-letters to an explicit `deadLetterQueue`, else rejects). Every re-publish is confirmed
 * before the original is acked, so a crash in between duplicates a message but never loses one.
 * Never rejects.
 */
export async function handleDelivery(
  channel: ConfirmChannel,
  acks: DeliveryAcks,
  queue: string,
  message: ConsumeMessage,
  target: DeliveryTarget,
): Promise<void> {
  let exchange: Exchange | undefined;
  try {
    const redeliveries = redeliveryCount(message);
    const replyTo = message.properties.replyTo;
    const wire = deliveryWire(message, target);
    exchange = target.context.createExchange({
      wire,
      headers: message.properties.headers,
      pattern: typeof replyTo === "string" ? "InOut" : "InOnly",
    });
    exchange.properties = deliveryProperties(queue, message, redeliveries);
    exchange.fromEndpoint = target.config.uri;
    await target.processor(exchange);
    const error = exchange.error;
    if (error === undefined) {
      if (typeof replyTo === "string") await reply(channel, replyTo, message, exchange, target);
      return acks.ack(message);
    }
    if (!target.active() && exchange.signal.aborted) {
      // Stopped mid-message: hand it back untouched, for the next consumer.
      return acks.nack(message, true);
    }
    await settleFailure({ channel, acks, queue, message, target, exchange, wire, redeliveries }, error);
  } catch (error) {
    // The channel is gone (the broker redelivers what was not acked), or the broker refused a
    // re-publish (e.g. a full dead-letter queue): give the message back so it is not lost,
    // after a pause so that a lasting refusal does not spin.
    if (exchange !== undefined)
      reportConsumerFailure(target.context, exchange, target.config.uri, {
        kind: "requeued",
        why: `the broker refused its retry or dead letter: ${error instanceof Error ? error.message : String(error)}`,
      });
    if (!isTransientFailure(error)) await pause(REFUSAL_PAUSE_MS);
    try {
      acks.nack(message, true);
    } catch {}
  }
}

/** The delivery's body in its wire form, decoded by its first read. */
function deliveryWire(message: ConsumeMessage, target: DeliveryTarget): WireBody {
  // createExchange copies the headers (all of them, as fromAmqpHeaders does); the properties
  // are the exchange's own from the start.
  const contentType: unknown = message.properties.contentType;
  return {
    content: message.content,
    contentType: typeof contentType === "string" ? contentType : undefined,
    decode: wireBodyDecoder(target.config.options.maxJsonDepth),
  };
}

/** One delivery whose exchange failed, and what settling it needs. */
interface FailedDelivery {
  readonly channel: ConfirmChannel;
  readonly acks: DeliveryAcks;
  readonly queue: string;
  readonly message: ConsumeMessage;
  readonly target: DeliveryTarget;
  readonly exchange: Exchange;
  readonly wire: WireBody;
  readonly redeliveries: number;
}

/** Answers a request with an error reply, or re-publishes, dead-letters or rejects the message. */
async function settleFailure(delivery: FailedDelivery, error: unknown): Promise<void> {
  const { channel, acks, queue, message, target, exchange, wire, redeliveries } = delivery;
  const source = target.config.uri;
  const replyTo = message.properties.replyTo;
  if (typeof replyTo === "string") {
    await replyError(channel, replyTo, message, error, target, exchange.headers);
    reportConsumerFailure(target.context, exchange, source, { kind: "answered", how: "error reply sent" });
    return acks.ack(message);
  }
  // A dead-letter queue is the end of the line: its messages are not redelivered again; nor
  // is one whose body cannot be decoded (it still is in its wire form: its decode failed).
  const undecodable =
    error instanceof AmqpError && error.code === "DECODE_FAILED" && wireBodyOf(exchange) === wire;
  // A permanent error (`retryable: false`: invalid data, a codec error) fails the same way again.
  const redeliverable = !consumesDeadLetterQueue(target.config) && !undecodable && isRetryable(error);
  if (redeliverable && redeliveries < target.config.options.maxRedeliveries) {
    const options = republishOptions(message, { [amqpHeader.redeliveries]: redeliveries + 1 });
    await publishConfirmed(channel, "", queue, message.content, options);
    reportConsumerFailure(target.context, exchange, source, {
      kind: "redelivering",
      redelivery: redeliveries + 1,
      maxRedeliveries: target.config.options.maxRedeliveries,
    });
    return acks.ack(message);
  }
  const deadLetterQueue = await deadLetter(
    channel,
    acks,
    queue,
    message,
    target,
    error,
    redeliveries,
    exchange.headers,
  );
  reportConsumerFailure(
    target.context,
    exchange,
    source,
    deadLetterQueue === undefined
      ? { kind: "rejected", why: "no dead-letter queue" }
      : { kind: "dead-lettered", to: deadLetterQueue },
  );
}

/**
 * The exchange properties of a delivery (`amqpProperty`). Written with literal keys, so each
 * delivery's object is made from one fixed shape rather than key by key.
 */
function deliveryProperties(
  queue: string,
  message: ConsumeMessage,
  redeliveries: number,
): Record<AmqpPropertyName, unknown> {
  return {
    "amqp.queue": queue,
    "amqp.exchange": message.fields.exchange,
    "amqp.routingKey": message.fields.routingKey,
    "amqp.redelivered": message.fields.redelivered,
    "amqp.redeliveries": redeliveries,
    "amqp.messageId": message.properties.messageId,
    "amqp.correlationId": message.properties.correlationId,
  };
}

/** Redeliveries so far: routekit's own counter, or a quorum queue's `x-delivery-count`. */
function redeliveryCount(message: ConsumeMessage): number {
  const headers = message.properties.headers;
  const own = headers?.[amqpHeader.redeliveries];
  const quorum = headers?.["x-delivery-count"];
  return Math.max(typeof own === "number" ? own : 0, typeof quorum === "number" ? quorum : 0);
}

async function deadLetter(
  channel: ConfirmChannel,
  acks: DeliveryAcks,
  queue: string,
  message: ConsumeMessage,
  target: DeliveryTarget,
  error: unknown,
  redeliveries: number,
  headers: Readonly<Record<string, unknown>>,
): Promise<string | undefined> {
  // Declared again first: a temporary dead-letter queue is deleted when its consumers stop,
  // and other processes may still be consuming the queue.
  const deadLetterQueue = await declareDeadLetterQueue(channel, target.config);
  if (deadLetterQueue === undefined) {
    // Dead-lettering is off: reject, so the broker drops it or applies the queue's own policy.
    acks.nack(message, false);
    return undefined;
  }
  const options = republishOptions(message, {
    [amqpHeader.redeliveries]: redeliveries,
    [amqpHeader.error]: errorText(error, headers),
    [amqpHeader.route]: target.routeId,
    [amqpHeader.queue]: queue,
    [amqpHeader.failedAt]: new Date().toISOString(),
  });
  await publishConfirmed(channel, "", deadLetterQueue, message.content, options);
  acks.ack(message);
  return deadLetterQueue;
}

async function reply(
  channel: ConfirmChannel,
  replyTo: string,
  message: ConsumeMessage,
  exchange: Exchange,
  target: DeliveryTarget,
): Promise<void> {
  let encoded: EncodedBody;
  let headers: Record<string, unknown>;
  try {
    encoded = encodeExchangeBody(exchange);
    headers = toAmqpHeaders(exchange.headers);
  } catch (error) {
    return replyError(channel, replyTo, message, error, target, exchange.headers);
  }
  const options: Parameters<typeof publishConfirmed>[4] = {
    correlationId: message.properties.correlationId,
    headers,
  };
  if (encoded.contentType !== undefined) options.contentType = encoded.contentType;
  await publishConfirmed(channel, "", replyTo, encoded.content, options);
}

async function replyError(
  channel: ConfirmChannel,
  replyTo: string,
  message: ConsumeMessage,
  error: unknown,
  target: DeliveryTarget,
  headers: Readonly<Record<string, unknown>>,
): Promise<void> {
  await publishConfirmed(channel, "", replyTo, Buffer.alloc(0), {
    correlationId: message.properties.correlationId,
    type: ERROR_REPLY_TYPE,
    headers: { [amqpHeader.error]: errorText(error, headers), [amqpHeader.route]: target.routeId },
  });
}

/** The error for a header that leaves the process: the credentials the exchange's headers carry redacted. */
function errorText(error: unknown, headers: Readonly<Record<string, unknown>>): string {
  const text = headerRedactor(headers)(messageOf(error));
  return text.length > 4000 ? `${text.slice(0, 4000)}...` : text;
}
