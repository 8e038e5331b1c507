import { interceptSend, type StepInterceptor } from "../compile/step-interceptor.js";
import type { Endpoint } from "../components/component.js";
import type { Exchange } from "../model/exchange.js";
import type { Sender } from "./exchange-dispatch.js";

/**
 * What the context's own sends (`request`, `send`, `requestExchange`, producer handles) send to,
 * per URI: the endpoint itself, or its send as the interceptors' `wrapSend` wrapped it, made once
 * per URI and endpoint. The last URI looked up is kept, as callers often repeat one.
 */
export class Senders {
  readonly #endpoint: (uri: string) => Endpoint;
  readonly #interceptors: readonly StepInterceptor[];
  #lastUri: string | undefined = undefined;
  #lastSender: Sender | undefined = undefined;
  /** Whether an interceptor has `wrapSend`; until one is added, sends go to the endpoints directly. */
  #wrapsSends = false;
  /** The sends the interceptors wrapped, per URI, with the endpoint they send to. */
  readonly #wrapped = new Map<string, { endpoint: Endpoint; sender: Sender }>();

  constructor(endpoint: (uri: string) => Endpoint, interceptors: readonly StepInterceptor[]) {
    this.#endpoint = endpoint;
    this.#interceptors = interceptors;
  }

  /** What sends to `uri` now. */
  of(uri: string): Sender {
    if (uri === this.#lastUri) return this.#lastSender!;
    const sender = this.for(uri, this.#endpoint(uri));
    this.#lastUri = uri;
    this.#lastSender = sender;
    return sender;
  }

  /** What sends to `endpoint`, the endpoint of `uri` (a producer handle asks once). */
  for(uri: string, endpoint: Endpoint): Sender {
    return this.#wrapsSends ? this.#wrappedSend(uri, endpoint) : endpoint;
  }

  /** An interceptor was added: one with `wrapSend` applies to sends from now on. */
  interceptorAdded(interceptor: StepInterceptor): void {
    if (interceptor.wrapSend === undefined) return;
    this.#wrapsSends = true;
    this.#wrapped.clear();
    this.#lastUri = undefined;
  }

  /** The endpoint of `uri` is gone: nothing kept for it may be used again. */
  forget(uri: string): void {
    if (uri === this.#lastUri) this.#lastUri = undefined;
    this.#wrapped.delete(uri);
  }

  #wrappedSend(uri: string, endpoint: Endpoint): Sender {
    const known = this.#wrapped.get(uri);
    if (known !== undefined && known.endpoint === endpoint) return known.sender;
    const direct = (exchange: Exchange): void | Promise<void> => endpoint.send(exchange);
    const send = interceptSend(this.#interceptors, uri, direct);
    // When every interceptor stayed out of the way, sends go to the endpoint itself.
    const sender = send === direct ? endpoint : { send };
    this.#wrapped.set(uri, { endpoint, sender });
    return sender;
  }
}
