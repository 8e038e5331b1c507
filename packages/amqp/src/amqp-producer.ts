import { EFFECT_KEY_HEADER, type Exchange } from "@routekit/core";
import type { ConsumeMessage, Options } from "amqplib";
import { decodeBody, encodeExchangeBody, fromAmqpHeaders, toAmqpHeaders } from "./amqp-codec.js";
import { AmqpError } from "./amqp-error.js";
import { amqpHeader, ERROR_REPLY_TYPE } from "./amqp-headers.js";
import type { AmqpEndpointConfig } from "./amqp-options.js";
import { declareForProducer } from "./amqp-topology.js";
import type { ConfirmPublisher, PublishRequest } from "./confirm-publisher.js";
import { nextMessageId } from "./message-id.js";
import type { RequestReplyClient } from "./request-reply-client.js";

/** Where a producer gets its (lazily connected) publishers. */
export interface ProducerServices {
  publisher(): ConfirmPublisher;
  requester(): RequestReplyClient;
}

/**
 * The `send` of an `amqp:` endpoint. InOnly: publish with confirm (resolves once the broker has
 * the message). InOut: request-reply; the reply's body replaces the exchange's body and its
 * headers are merged in; a reply reporting a failed route throws REMOTE_ROUTE_FAILED.
 */
export function createAmqpSend(
  config: AmqpEndpointConfig,
  services: ProducerServices,
): (exchange: Exchange) => Promise<void> {
  const { target, options } = config;
  const exchangeName = target.kind === "queue" ? "" : target.exchange;
  const routingKey = target.kind === "queue" ? target.queue : target.routingKey;
  const prepare = (channel: Parameters<PublishRequest["prepare"]>[0]) => declareForProducer(channel, config);
  const pattern = options.exchangePattern;

  const requestOf = (exchange: Exchange): PublishRequest => {
    const encoded = encodeExchangeBody(exchange, options.contentType);
    const publishOptions: Options.Publish = {
      headers: toAmqpHeaders(exchange.headers),
      persistent: options.persistent,
      mandatory: options.mandatory,
      messageId: messageIdOf(exchange),
    };
    if (encoded.contentType !== undefined) publishOptions.contentType = encoded.contentType;
    return {
      exchange: exchangeName,
      routingKey,
      content: encoded.content,
      options: publishOptions,
      prepareKey: config.uri,
      prepare,
    };
  };

  const requestReply = async (exchange: Exchange): Promise<void> => {
    const reply = await services
      .requester()
      .request(requestOf(exchange), options.requestTimeout, exchange.signal)
      .catch((error: unknown) => {
        throw explainTimeout(error, config);
      });
    applyReply(exchange, reply, config);
  };

  // Not an async function: an InOnly send hands back the publisher's own promise (one promise
  // less per message); a body that cannot be encoded still rejects instead of throwing.
  return (exchange) => {
    if ((pattern ?? exchange.pattern) === "InOut") return requestReply(exchange);
    try {
      return services
        .publisher()
        .publish(requestOf(exchange), Date.now() + options.sendTimeout, exchange.signal);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/**
 * A REQUEST_TIMEOUT that says why the send waited for a reply (an InOut exchange, or
 * `exchangePattern=InOut`) and what to change: as in Camel, an InOut exchange makes every
 * messaging step a request-reply.
 */
function explainTimeout(error: unknown, config: AmqpEndpointConfig): unknown {
  if (!(error instanceof AmqpError) || error.code !== "REQUEST_TIMEOUT") return error;
  const why =
    config.options.exchangePattern === "InOut"
      ? "the endpoint sets exchangePattern=InOut, so it waits for a reply"
      : "the exchange is InOut (e.g. from context.request()), so this amqp: step is a request-reply and waits for a reply";
  return new AmqpError(
    "REQUEST_TIMEOUT",
    `Endpoint '${config.uri}': ${error.message}: ${why}. ` +
      `To publish without waiting, set exchangePattern=InOnly on this endpoint ('${withOption(config.uri, "exchangePattern=InOnly")}'); ` +
      "to get a reply, consume the queue with a routekit route (its result is the reply) or another consumer that answers to reply-to with the correlation id",
    { cause: error },
  );
}

function withOption(uri: string, option: string): string {
  const cleaned = uri.replace(/([?&])exchangePattern=[^&]*&?/, "$1").replace(/[?&]$/, "");
  return `${cleaned}${cleaned.includes("?") ? "&" : "?"}${option}`;
}

function applyReply(exchange: Exchange, reply: ConsumeMessage, config: AmqpEndpointConfig): void {
  const headers = fromAmqpHeaders(reply.properties.headers);
  if (reply.properties.type === ERROR_REPLY_TYPE) {
    const route =
      typeof headers[amqpHeader.route] === "string" ? ` (route '${headers[amqpHeader.route]}')` : "";
    throw new AmqpError(
      "REMOTE_ROUTE_FAILED",
      `The consumer of '${config.uri}'${route} failed: ${String(headers[amqpHeader.error] ?? "no error text")}`,
    );
  }
  exchange.body = decodeBody(reply.content, reply.properties.contentType, config.options.maxJsonDepth);
  Object.assign(exchange.headers, headers);
}

/** An effect's key when the exchange carries one (the receiver deduplicates by it), else a new id. */
function messageIdOf(exchange: Exchange): string {
  const effectKey = exchange.headers[EFFECT_KEY_HEADER];
  return typeof effectKey === "string" && effectKey !== "" ? effectKey : nextMessageId();
}
