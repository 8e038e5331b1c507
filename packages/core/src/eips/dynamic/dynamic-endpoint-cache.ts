import type { Endpoint } from "../../components/component.js";
import type { ContextInternals } from "../../runtime/context-internals.js";

/** Default number of endpoints one toD or recipientList step keeps (Camel's `cacheSize`). */
export const TO_DYNAMIC_CACHE_SIZE = 1000;

/** Who holds an endpoint the cache created, and what to do when the last holder lets go. */
interface Hold {
  readonly uri: string;
  holders: number;
  /** Created for capacity 0: dropped on the last release. */
  readonly transient: boolean;
  /** Evicted while held: stopped on the last release. */
  evicted: boolean;
}

/**
 * The endpoints one toD or recipientList step created, least recently used first, at most
 * `capacity`. An endpoint the context already held (a route's `from` or `to`, or one a test
 * looked up) is used as it is and never counted; one the step created is dropped from the context and stopped when it falls out,
 * so a stream of distinct URIs cannot grow memory without bound. Capacity 0 keeps none: each
 * message creates its endpoint and drops it after the send.
 *
 * `acquire`/`release` hold an endpoint while a send is under way: one evicted while held is
 * forgotten at once but stopped only when its last holder releases it (recipientList holds every
 * recipient of a message from resolution to the end of its fan-out).
 */
export class DynamicEndpointCache {
  readonly #context: ContextInternals;
  readonly #capacity: number;
  readonly #created = new Map<string, Endpoint>();
  /** Endpoints this cache created that are held now, with their holders. */
  readonly #held = new Map<Endpoint, Hold>();
  /** Endpoints created for capacity 0 and held, by URI: holders of one URI share one. */
  readonly #transient = new Map<string, Endpoint>();

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

  /**
   * The endpoint for `uri`, held until `release(endpoint)`: it is not stopped while held, even
   * when evicted. With capacity 0 it is dropped when its last holder releases it.
   */
  acquire(uri: string): Endpoint {
    let endpoint = this.#transient.get(uri);
    let transient = endpoint !== undefined;
    if (endpoint === undefined) {
      if (this.#capacity === 0 && !this.#context.hasEndpoint(uri)) {
        endpoint = this.#context.endpoint(uri);
        this.#transient.set(uri, endpoint);
        transient = true;
      } else {
        endpoint = this.endpoint(uri).endpoint;
        if (this.#created.get(uri) !== endpoint) return endpoint; // the context's own: never held
      }
    }
    const hold = this.#held.get(endpoint);
    if (hold === undefined) this.#held.set(endpoint, { uri, holders: 1, transient, evicted: false });
    else hold.holders += 1;
    return endpoint;
  }

  /** Ends one hold from `acquire`; the last one stops an endpoint that was evicted or is transient. */
  release(endpoint: Endpoint): void {
    const hold = this.#held.get(endpoint);
    if (hold === undefined) return; // the context's own endpoint: never held
    hold.holders -= 1;
    if (hold.holders > 0) return;
    this.#held.delete(endpoint);
    if (hold.transient) {
      this.#transient.delete(hold.uri);
      this.#context.forgetEndpoint(hold.uri);
      this.#stop(hold.uri, endpoint);
    } else if (hold.evicted) this.#stop(hold.uri, endpoint);
  }

  /** Forgets an endpoint this cache created and stops it (once released, when held). */
  drop(uri: string): void {
    this.#created.delete(uri);
    const endpoint = this.#context.forgetEndpoint(uri);
    if (endpoint === undefined) return;
    const hold = this.#held.get(endpoint);
    if (hold === undefined) this.#stop(uri, endpoint);
    else hold.evicted = true;
  }

  #stop(uri: string, endpoint: Endpoint): void {
    if (endpoint.stop === undefined) return;
    // The stop gets the budget of a context stop; older endpoints ignore the argument.
    const stop = endpoint.stop as (budget: { timeoutMs: number; signal: AbortSignal }) => unknown;
    Promise.resolve()
      .then(() => stop.call(endpoint, { timeoutMs: 5000, signal: new AbortController().signal }))
      .catch((error: unknown) =>
        this.#context.logger.warn(
          `Endpoint '${uri}' dropped from the dynamic endpoint cache failed to stop: ${String(error)}`,
        ),
      );
  }
}
