// Exchanges whose body arrived in its wire form (bytes and a decoder): decoded on its first read.
import type { Exchange, ExchangePattern, Headers, RouteContext, WireBody } from "../model/exchange.js";
import type { SignalSource } from "./exchange-deadline.js";
import { type OriginalMessage, RuntimeExchange, sentinels } from "./runtime-exchange.js";

const { inWireForm: IN_WIRE_FORM, sameBody: SAME_BODY } = sentinels;

/**
 * An exchange made with a body in its wire form (`createExchange({ wire })`): a class of its own,
 * so that every other exchange keeps `body` as a plain property and a step's read of it stays
 * one field load. Here `body` is an accessor (defined on the prototype below): the first read
 * decodes the wire form and keeps the value; a write replaces it; either drops the wire form.
 */
export class WireExchange<TBody = unknown> extends RuntimeExchange<TBody> {
  #wire: WireBody | undefined;
  #value: unknown = undefined;

  constructor(
    context: RouteContext,
    signal: AbortSignal | SignalSource,
    wire: WireBody,
    headers: Headers | undefined,
    properties: Record<string, unknown> | undefined,
    pattern: ExchangePattern | undefined,
  ) {
    super(context, signal, IN_WIRE_FORM as never, headers, properties, pattern);
    this.#wire = wire;
  }

  /** A copy carrying this exchange's own body shares its wire form while that is undecoded. */
  protected override newCopy(
    body: unknown,
    signal: AbortSignal,
    headers: Headers,
    properties: Record<string, unknown>,
  ): RuntimeExchange {
    const wire = body === SAME_BODY ? this.#wire : undefined;
    if (wire === undefined) return super.newCopy(body, signal, headers, properties);
    return new WireExchange(this.context, signal, wire, headers, properties, this.pattern);
  }

  /**
   * The body, decoded first while in wire form: a decode that throws throws here (the step reading
   * the body fails) and leaves the wire form in place for the next read.
   */
  static read(exchange: WireExchange): unknown {
    const wire = exchange.#wire;
    if (wire !== undefined) {
      exchange.#value = wire.decode(wire.content, wire.contentType);
      exchange.#wire = undefined;
    }
    return exchange.#value;
  }

  static write(exchange: WireExchange, value: unknown): void {
    exchange.#value = value;
    exchange.#wire = undefined;
  }

  /** The wire form while it is untouched. */
  static pending(exchange: WireExchange): WireBody | undefined {
    return exchange.#wire;
  }

  /** Puts `wire` back as the body (an error handler restoring the original message). */
  static restore(exchange: WireExchange, wire: WireBody): void {
    exchange.#wire = wire;
    exchange.#value = undefined;
  }
}

Object.defineProperty(WireExchange.prototype, "body", {
  get(this: WireExchange) {
    return WireExchange.read(this);
  },
  set(this: WireExchange, value: unknown) {
    WireExchange.write(this, value);
  },
  configurable: true,
});

/**
 * The body's wire form while it is untouched since the exchange was created with it
 * (`createExchange({ wire })`: never read, never replaced), for a producer that can send those
 * bytes as they are; undefined otherwise. Reading the body decodes it and drops the wire form,
 * since code holding the decoded value may change it.
 */
export function wireBodyOf(exchange: Exchange): WireBody | undefined {
  return exchange instanceof WireExchange ? WireExchange.pending(exchange) : undefined;
}

/**
 * Sets `exchange`'s body to a wire form again (an error handler restoring the original message):
 * undecoded on an exchange made with a wire form, decoded at once on any other.
 */
export function restoreWireBody(exchange: Exchange, wire: WireBody): void {
  if (exchange instanceof WireExchange) WireExchange.restore(exchange, wire);
  else exchange.body = wire.decode(wire.content, wire.contentType);
}

/** The message as it is now, for `original`: its body (or undecoded wire form) and a copy of its headers. */
export function originalOf(exchange: Exchange): OriginalMessage {
  const wire = wireBodyOf(exchange);
  return { body: wire === undefined ? exchange.body : undefined, wire, headers: { ...exchange.headers } };
}

/** Makes `to`'s body `from`'s, sharing a wire form undecoded where `to` can hold one (a queue handing back a reply). */
export function moveBody(from: Exchange, to: Exchange): void {
  const wire = wireBodyOf(from);
  if (wire === undefined) to.body = from.body;
  else restoreWireBody(to, wire);
}
