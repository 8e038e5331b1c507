import type { CompileContext } from "../../compile/compile-context.js";
import { interceptSend, type SendStep } from "../../compile/step-interceptor.js";
import type { Endpoint } from "../../components/component.js";
import type { Exchange } from "../../model/exchange.js";
import type { Sender } from "../../runtime/exchange-dispatch.js";
import type { EndpointCheck } from "../../support/endpoint-allowlist.js";

/** Default number of endpoints one toD or recipientList step keeps (Camel's `cacheSize`). */
export const TO_DYNAMIC_CACHE_SIZE = 1000;

/**
 * An endpoint a toD or recipientList step sends to, with what sends to it: the endpoint itself,
 * or its send as the interceptors' `wrapSend` wrapped it (a tracing span per destination).
 */
export interface DynamicEndpoint {
  /** The URI it was asked for. */
  readonly uri: string;
  readonly endpoint: Endpoint;
  readonly sender: Sender;
  /** Created for capacity 0: drop it once the send is done. */
  readonly dropAfterUse: boolean;
  /**
   * Whether this step created it (`acquire` holds it until `release`), else it is the context's
   * own endpoint (never held, never stopped by the cache).
   */
  readonly created: boolean;
}

/** The `allowedEndpoints` check of a step, and where the step is (for refusals). */
export interface DynamicEndpointGuard {
  readonly check: EndpointCheck;
  readonly where: string;
}

/** An endpoint as the cache keeps it. */
type Entry = DynamicEndpoint;

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
 * Each endpoint comes with its send as the context's interceptors wrapped it (`wrapSend`, told
 * the step), made once per URI and endpoint: kept with the endpoints this step created, and for
 * at most `capacity` endpoints the context held, first kept first forgotten; with capacity 0, for
 * each message.
 *
 * `acquire`/`release` hold an endpoint while a send is under way: one evicted while held is
 * forgotten at once but stopped only when its last holder releases it (recipientList holds every
 * recipient of a message from resolution to the end of its fan-out).
 */
export class DynamicEndpointCache {
  readonly #context: CompileContext;
  readonly #capacity: number;
  readonly #step: SendStep;
  readonly #created = new Map<string, Entry>();
  /** The URI last put at the end of `#created` (the most recently used, while it is there). */
  #newest: string | undefined = undefined;
  /** The context's own endpoints this step sent to, with their senders (at most `capacity`). */
  readonly #kept = new Map<string, Entry>();
  /** Endpoints this cache created that are held now, with their holders. */
  readonly #held = new Map<Endpoint, Hold>();
  /** Endpoints created for capacity 0 and held, by URI: holders of one URI share one. */
  readonly #transient = new Map<string, Entry>();
  readonly #guard: DynamicEndpointGuard | undefined;

  /**
   * With `guard`, every URI not already resolved by this step is checked before any endpoint is
   * looked up or created for it: a refused URI throws `ENDPOINT_NOT_ALLOWED` and makes nothing.
   */
  constructor(context: CompileContext, capacity: number, step: SendStep, guard?: DynamicEndpointGuard) {
    this.#context = context;
    this.#capacity = capacity;
    this.#step = step;
    this.#guard = guard;
  }

  get size(): number {
    return this.#created.size;
  }

  /**
   * The endpoint for `uri`, its sender, and whether it must be dropped once the send is done
   * (capacity 0).
   */
  endpoint(uri: string): Entry {
    const known = this.#created.get(uri);
    if (known !== undefined) {
      // Already the most recently used: nothing to move (a step often repeats its last URI).
      if (uri !== this.#newest) {
        this.#created.delete(uri);
        this.#created.set(uri, known);
        this.#newest = uri;
      }
      return known;
    }
    // Endpoints this step already resolved passed the check; every other URI is checked first.
    if (this.#guard !== undefined && !this.#kept.has(uri)) this.#guard.check(uri, this.#guard.where);
    const kept = this.#context.hasEndpoint(uri);
    const endpoint = this.#context.endpoint(uri);
    if (kept) return this.#keptEntry(uri, endpoint);
    const entry = this.#entry(uri, endpoint, this.#capacity === 0);
    if (this.#capacity === 0) return entry;
    this.#created.set(uri, entry);
    this.#newest = uri;
    if (this.#created.size > this.#capacity) {
      const oldest = this.#created.keys().next();
      if (oldest.done !== true) this.drop(oldest.value);
    }
    return entry;
  }

  /**
   * The endpoint for `uri` and its sender, held until `release` is given it: it is not stopped while
   * held, even when evicted. With capacity 0 it is dropped when its last holder releases it.
   */
  acquire(uri: string): DynamicEndpoint {
    // Only capacity 0 keeps transient endpoints.
    let entry = this.#capacity === 0 ? this.#transient.get(uri) : undefined;
    let transient = entry !== undefined;
    if (entry === undefined) {
      if (this.#capacity === 0 && !this.#context.hasEndpoint(uri)) {
        this.#guard?.check(uri, this.#guard.where);
        entry = this.#entry(uri, this.#context.endpoint(uri), true);
        this.#transient.set(uri, entry);
        transient = true;
      } else {
        entry = this.endpoint(uri);
        if (!entry.created) return entry; // the context's own: never held
      }
    }
    const hold = this.#held.get(entry.endpoint);
    if (hold === undefined) this.#held.set(entry.endpoint, { uri, holders: 1, transient, evicted: false });
    else hold.holders += 1;
    return entry;
  }

  /** Ends one hold from `acquire`; the last one stops an endpoint that was evicted or is transient. */
  release(acquired: DynamicEndpoint): void {
    if (!acquired.created) return; // the context's own endpoint: never held
    const endpoint = acquired.endpoint;
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

  /** The context's own endpoint for `uri`, with its sender (made again when the endpoint changed). */
  #keptEntry(uri: string, endpoint: Endpoint): Entry {
    const known = this.#kept.get(uri);
    if (known?.endpoint === endpoint) return known;
    const entry = this.#entry(uri, endpoint, false, false);
    if (this.#capacity === 0) return entry;
    this.#kept.delete(uri);
    this.#kept.set(uri, entry);
    if (this.#kept.size > this.#capacity) this.#kept.delete(this.#kept.keys().next().value!);
    return entry;
  }

  /**
   * The endpoint with its send as the interceptors wrapped it. When an interceptor fails to wrap
   * it, an endpoint this step just created is dropped again and the failure thrown.
   */
  #entry(uri: string, endpoint: Endpoint, dropAfterUse: boolean, created = true): Entry {
    const direct = (exchange: Exchange): void | Promise<void> => endpoint.send(exchange);
    let send: typeof direct;
    try {
      send = interceptSend(this.#context.interceptors, uri, direct, this.#step);
    } catch (error) {
      if (created) {
        this.#context.forgetEndpoint(uri);
        this.#stop(uri, endpoint);
      }
      throw error;
    }
    // When every interceptor stayed out of the way, sends go to the endpoint itself.
    return { uri, endpoint, sender: send === direct ? endpoint : { send }, dropAfterUse, created };
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
