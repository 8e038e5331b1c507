import type { Endpoint } from "../components/component.js";
import {
  type DeadlineSet,
  ExchangeDeadline,
  releaseExchange,
  type SignalSource,
} from "../exchange/exchange-deadline.js";
import { RuntimeExchange } from "../exchange/runtime-exchange.js";
import { WireExchange } from "../exchange/wire-exchange.js";
import type { Exchange, ExchangePattern, Headers, RouteContext } from "../model/exchange.js";
import { copyRecord } from "../support/copy-record.js";
import { checkExchangeDeadline } from "./check-context-options.js";
import type { ContextLifecycle } from "./context-lifecycle.js";
import { releasedAfter } from "./context-shutdown.js";
import type { ExchangeInit } from "./context-types.js";
import { dispatch, requestOn, sendOn } from "./exchange-dispatch.js";
import { createProducer, type Producer } from "./producer.js";
import type { Senders } from "./senders.js";

/**
 * What callers of a context send with: new exchanges (with their deadline), `request` and `send`
 * (the fast path: no options object, no deadline, the sender of the last URI kept),
 * `requestExchange`, and producer handles on one endpoint.
 */
export class ContextSends {
  readonly #context: RouteContext;
  readonly #lifecycle: ContextLifecycle;
  readonly #senders: Senders;

  constructor(context: RouteContext, lifecycle: ContextLifecycle, senders: Senders) {
    this.#context = context;
    this.#lifecycle = lifecycle;
    this.#senders = senders;
  }

  createExchange<TBody = unknown>(init: ExchangeInit<TBody> = {}): Exchange<TBody> {
    const { controller, deadlines } = this.#lifecycle.shutdown;
    const shutdown = controller.signal;
    const timeoutMs = init.timeoutMs;
    checkExchangeDeadline(init);
    // The shutdown signal is never combined with itself.
    const caller = init.signal === shutdown ? undefined : init.signal;
    let deadline: ExchangeDeadline | undefined;
    // A run that has already aborted in-flight work aborts the new deadline as it joins the set.
    if (timeoutMs !== undefined || caller !== undefined)
      deadline = new ExchangeDeadline(deadlines, timeoutMs, caller);
    const exchange = this.#build(init, deadline ?? shutdown);
    exchange.deadline = deadline;
    return exchange;
  }

  /**
   * A new exchange whose signal is `source`'s (see `ContextInternals.createExchangeUnder`): no
   * deadline of its own, so `init`'s `signal` and `timeoutMs` are refused.
   */
  createExchangeUnder<TBody = unknown>(init: ExchangeInit<TBody>, source: SignalSource): Exchange<TBody> {
    if (init.signal !== undefined || init.timeoutMs !== undefined) {
      throw new TypeError(
        "createExchangeUnder: the exchange's deadline is its source's; give no 'signal' or 'timeoutMs'",
      );
    }
    return this.#build(init, source);
  }

  /** The deadlines the current run aborts when it aborts in-flight work. */
  get deadlines(): DeadlineSet {
    return this.#lifecycle.shutdown.deadlines;
  }

  #build<TBody>(init: ExchangeInit<TBody>, signal: AbortSignal | SignalSource): RuntimeExchange<TBody> {
    const headers = init.headers === undefined ? undefined : copyRecord(init.headers);
    const properties = init.properties === undefined ? undefined : copyRecord(init.properties);
    const pattern = init.pattern ?? "InOnly";
    return init.wire === undefined
      ? new RuntimeExchange<TBody>(this.#context, signal, init.body as TBody, headers, properties, pattern)
      : new WireExchange<TBody>(this.#context, signal, init.wire, headers, properties, pattern);
  }

  requestExchange<TBody = unknown>(uri: string, init: ExchangeInit = {}): Promise<Exchange<TBody>> {
    try {
      const exchange = this.#dispatch(uri, init);
      return (exchange instanceof Promise ? exchange : Promise.resolve(exchange)) as Promise<Exchange<TBody>>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  request<TReply = unknown>(uri: string, body?: unknown, headers?: Headers): Promise<TReply> {
    try {
      this.#lifecycle.ensureStarted("send to", uri);
      return requestOn<TReply>(this.#senders.of(uri), this.#exchangeOf(body, headers, "InOut"));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  send(uri: string, body?: unknown, headers?: Headers): Promise<void> {
    try {
      this.#lifecycle.ensureStarted("send to", uri);
      const exchange = this.#exchangeOf(body, headers, "InOnly");
      exchange.handedOver = true;
      return sendOn(this.#senders.of(uri), exchange);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A producer handle on `endpoint`, the endpoint of `uri`. */
  producer(uri: string, endpoint: Endpoint): Producer {
    return createProducer(uri, this.#senders.for(uri, endpoint), {
      exchange: (body, headers, pattern) => {
        this.#lifecycle.ensureStarted("send to", uri);
        return this.#exchangeOf(body, headers, pattern);
      },
    });
  }

  /**
   * Sends a new exchange to `uri` (InOut unless `init` says otherwise); the promise settles when
   * the endpoint is done with it.
   */
  #dispatch(uri: string, init: ExchangeInit): Exchange | Promise<Exchange> {
    this.#lifecycle.ensureStarted("send to", uri);
    const endpoint = this.#senders.of(uri);
    const exchange = this.createExchange(init) as RuntimeExchange;
    if (init.pattern === undefined) exchange.pattern = "InOut";
    const result = dispatch(endpoint, exchange);
    // The route releases the deadline when it finishes the exchange; this covers the other
    // paths (no consumer, a producer endpoint, a failed send).
    if (!(result instanceof Promise)) releaseExchange(exchange);
    else if (exchange.deadline !== undefined) return result.then(releasedAfter);
    return result;
  }

  /** A new exchange for request/send: the caller's headers copied, no deadline of its own. */
  #exchangeOf(body: unknown, headers: Headers | undefined, pattern: ExchangePattern): RuntimeExchange {
    return new RuntimeExchange(
      this.#context,
      this.#lifecycle.shutdown.controller.signal,
      body,
      headers === undefined ? undefined : copyRecord(headers),
      undefined,
      pattern,
    );
  }
}
