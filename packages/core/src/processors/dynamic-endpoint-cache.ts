import type { Endpoint } from "../component.js";
import type { ContextInternals } from "../context-internals.js";

/** Default number of endpoints one toD step keeps (Camel's toD `cacheSize`). */
export const TO_DYNAMIC_CACHE_SIZE = 1000;

/**
 * The endpoints one toD step created, least recently used first, at most `capacity`. An endpoint
 * the context already held (a route's `from` or `to`, or one a test looked up) is used as it is
 * and never counted; one toD created is dropped from the context and stopped when it falls out,
 * so a stream of distinct URIs cannot grow memory without bound. Capacity 0 keeps none: each
 * message creates its endpoint and drops it after the send.
 */
export class DynamicEndpointCache {
  readonly #context: ContextInternals;
  readonly #capacity: number;
  readonly #created = new Map<string, Endpoint>();

  constructor(context: ContextInternals, capacity: number) {
    this.#context = context;
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#created.size;
  }

  /** The endpoint for `uri`, and whether it must be dropped once the send is done (capacity 0). */
  endpoint(uri: string): { endpoint: Endpoint; dropAfterUse: boolean } {
    const known = this.#created.get(uri);
    if (known !== undefined) {
      this.#created.delete(uri);
      this.#created.set(uri, known);
      return { endpoint: known, dropAfterUse: false };
    }
    const kept = this.#context.hasEndpoint(uri);
    const endpoint = this.#context.endpoint(uri);
    if (kept) return { endpoint, dropAfterUse: false };
    if (this.#capacity === 0) return { endpoint, dropAfterUse: true };
    this.#created.set(uri, endpoint);
    if (this.#created.size > this.#capacity) {
      const oldest = this.#created.keys().next();
      if (oldest.done !== true) this.drop(oldest.value);
    }
    return { endpoint, dropAfterUse: false };
  }

  /** Forgets an endpoint this cache created and stops it. */
  drop(uri: string): void {
    this.#created.delete(uri);
    const endpoint = this.#context.forgetEndpoint(uri);
    if (endpoint?.stop === undefined) return;
    // The stop gets the budget of a context stop; older endpoints ignore the argument.
    const stop = endpoint.stop as (budget: { timeoutMs: number; signal: AbortSignal }) => unknown;
    Promise.resolve()
      .then(() => stop.call(endpoint, { timeoutMs: 5000, signal: new AbortController().signal }))
      .catch((error: unknown) =>
        this.#context.logger.warn(
          `Endpoint '${uri}' dropped from the toD cache failed to stop: ${String(error)}`,
        ),
      );
  }
}
