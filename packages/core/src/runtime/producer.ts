import type { Exchange, ExchangePattern, Headers } from "../model/exchange.js";
import { requestOn, type Sender, sendOn } from "./exchange-dispatch.js";

/**
 * A handle on one endpoint for code that sends to it again and again (`context.producer(uri)`,
 * Camel's ProducerTemplate bound to one endpoint): the URI is resolved and checked once, when the
 * handle is made, so each call only creates the exchange and sends it.
 */
export interface Producer {
  readonly uri: string;
  /** InOut: resolves with the reply body, rejects with the exchange's error (as `context.request`). */
  request<TReply = unknown>(body?: unknown, headers?: Headers): Promise<TReply>;
  /** InOnly: resolves once the endpoint accepted the message (as `context.send`). */
  send(body?: unknown, headers?: Headers): Promise<void>;
}

/** What a producer needs of its context: a new exchange, or an error when the context is not started. */
export interface ProducerHost {
  exchange(
    body: unknown,
    headers: Headers | undefined,
    pattern: ExchangePattern,
  ): Exchange & { handedOver: boolean };
}

/**
 * A producer on `endpoint` — the endpoint of `uri`, or its send as the context's interceptors
 * wrapped it (`wrapSend`) when the handle was made: interceptors added later do not apply to it.
 */
export function createProducer(uri: string, endpoint: Sender, host: ProducerHost): Producer {
  return {
    uri,
    request<TReply>(body?: unknown, headers?: Headers): Promise<TReply> {
      try {
        return requestOn<TReply>(endpoint, host.exchange(body, headers, "InOut"));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    send(body?: unknown, headers?: Headers): Promise<void> {
      try {
        const exchange = host.exchange(body, headers, "InOnly");
        exchange.handedOver = true;
        return sendOn(endpoint, exchange);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
