import type { Exchange } from "../model/exchange.js";
import { DeadlineQueue, type QueuedDeadline } from "./deadline-queue.js";

/** Node timers fire at once beyond this (about 24.8 days), so longer deadlines are capped to it. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Durations that share a timer queue per context; deadlines of other durations get their own timer. */
const MAX_QUEUED_DURATIONS = 32;

/** Where an exchange reads its signal: the deadline that makes it on first read. */
export interface SignalSource {
  readonly signal: AbortSignal;
}

/** A deadline the context's shutdown aborts: it fires its signal with `reason` and releases itself. */
export interface Abortable {
  abort(reason: unknown): void;
}

/**
 * The live deadlines of one run of a context: its exchanges' own, and those of callers that run
 * work on it under a deadline of their own (an MCP server's calls). Shutdown aborts them through
 * this set, so the context's long-lived shutdown signal carries one listener in all instead of
 * one per exchange. A deadline added once the set has aborted is aborted at once.
 */
export class DeadlineSet {
  readonly #live = new Set<Abortable>();
  #abortedWith: { reason: unknown } | undefined = undefined;
  /** One timer queue per deadline duration, for the first few durations seen. */
  readonly #queues = new Map<number, DeadlineQueue>();

  /**
   * The shared timer queue for deadlines of `durationMs`; undefined once the set holds queues for
   * MAX_QUEUED_DURATIONS other durations (such deadlines get a timer of their own).
   */
  queueFor(durationMs: number): DeadlineQueue | undefined {
    if (this.#abortedWith !== undefined) return undefined;
    let queue = this.#queues.get(durationMs);
    if (queue === undefined && this.#queues.size < MAX_QUEUED_DURATIONS) {
      queue = new DeadlineQueue(durationMs);
      this.#queues.set(durationMs, queue);
    }
    return queue;
  }

  add(deadline: Abortable): void {
    if (this.#abortedWith === undefined) this.#live.add(deadline);
    else deadline.abort(this.#abortedWith.reason);
  }

  delete(deadline: Abortable): void {
    this.#live.delete(deadline);
  }

  get size(): number {
    return this.#live.size;
  }

  /** Aborts every live deadline with `reason` (each releases itself), and any added later. */
  abortAll(reason: unknown): void {
    this.#abortedWith ??= { reason };
    for (const deadline of [...this.#live]) deadline.abort(reason);
    for (const queue of this.#queues.values()) queue.close();
    this.#queues.clear();
  }
}

/**
 * The signal of one exchange that has its own deadline or a caller's signal: it fires at the
 * deadline, when the caller's signal fires, or when the context aborts in-flight work. `release`
 * (called when the exchange ends, on every path) clears the timer, removes the listener on the
 * caller's signal and leaves the context's set, so nothing outlives the exchange.
 */
export class ExchangeDeadline implements SignalSource, Abortable, QueuedDeadline {
  // Created on first read of `signal`: most exchanges end without anyone looking at it.
  #controller: AbortController | undefined = undefined;
  #abortedWith: { reason: unknown } | undefined = undefined;
  readonly #set: DeadlineSet;
  readonly #caller: AbortSignal | undefined;
  #timer: NodeJS.Timeout | undefined = undefined;
  /** The shared timer queue holding this deadline, when its duration has one. */
  #queue: DeadlineQueue | undefined = undefined;
  #timeoutMs = 0;
  #released = false;
  dueAt = 0;
  queueSlot = -1;

  constructor(set: DeadlineSet, timeoutMs: number | undefined, caller: AbortSignal | undefined) {
    this.#set = set;
    if (caller?.aborted) {
      this.#caller = undefined;
      this.#released = true;
      this.#abortedWith = { reason: caller.reason };
      return;
    }
    this.#caller = caller;
    // The deadline itself is the listener (`handleEvent`): no closure per exchange.
    caller?.addEventListener("abort", this, { once: true });
    if (timeoutMs !== undefined) {
      const delay = Math.min(Math.max(0, timeoutMs), LONGEST_TIMER_MS);
      this.#timeoutMs = timeoutMs;
      this.#queue = set.queueFor(delay);
      if (this.#queue !== undefined) this.#queue.add(this);
      else {
        this.#timer = setTimeout(fireTimeout, delay, this, timeoutMs);
        this.#timer.unref();
      }
    }
    // Last: a set that has already aborted aborts the deadline at once, releasing the above.
    set.add(this);
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#abortedWith !== undefined) this.#controller.abort(this.#abortedWith.reason);
    }
    return this.#controller.signal;
  }

  /** Aborts the exchange now with `reason` (first abort wins) and releases everything it held. */
  abort(reason: unknown): void {
    this.release();
    if (this.#abortedWith !== undefined) return;
    this.#abortedWith = { reason };
    this.#controller?.abort(reason);
  }

  /** Clears the timer and the listener and leaves the context's set; idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue?.remove(this);
    this.#queue = undefined;
    this.#caller?.removeEventListener("abort", this);
    this.#set.delete(this);
  }

  /** Its queue's timer found it due. */
  expire(): void {
    this.#queue = undefined;
    fireTimeout(this, this.#timeoutMs);
  }

  /** The caller's signal fired. */
  handleEvent(): void {
    this.abort(this.#caller?.reason);
  }
}

function fireTimeout(deadline: ExchangeDeadline, timeoutMs: number): void {
  deadline.abort(new DOMException(`The deadline of ${timeoutMs} ms passed`, "TimeoutError"));
}

/** What the two functions below read of an exchange (a RuntimeExchange, without importing it). */
interface DeadlineOwner {
  deadline: ExchangeDeadline | undefined;
}

/**
 * Ends an exchange's own deadline: its timer and its listeners are released. The engine calls it
 * when the outermost route finishes the exchange and when a dispatch settles; a component that
 * creates exchanges with `timeoutMs` or `signal` and sends them itself calls it when it is done.
 * Calling it again, or on an exchange without a deadline, does nothing.
 */
export function releaseExchange(exchange: Exchange): void {
  const owned = (exchange as unknown as DeadlineOwner).deadline;
  if (owned === undefined) return;
  (exchange as unknown as DeadlineOwner).deadline = undefined;
  owned.release();
}

/**
 * Sends `exchange` to `endpoint` and settles when it is done, never rejecting: a send that throws
 * leaves its failure on `exchange.error`. The exchange's own deadline is released afterwards (the
 * route released it when it finished; a send that never reached a route did not). For components
 * that create an exchange, send it and then read its outcome.
 */
export async function sendSettled(
  endpoint: { send(exchange: Exchange): Promise<void> | void },
  exchange: Exchange,
): Promise<void> {
  try {
    await endpoint.send(exchange);
  } catch (error) {
    exchange.error = error instanceof Error ? error : new Error(String(error));
  }
  releaseExchange(exchange);
}

/**
 * Aborts an exchange that has its own deadline (created with `timeoutMs` or `signal`) now, with
 * `reason`: its signal fires as if its deadline had passed. For components that learn the work is
 * no longer wanted (an HTTP client that went away). Returns false when the exchange has no
 * deadline of its own (its signal is the context's and cannot be aborted alone).
 */
export function abortExchange(exchange: Exchange, reason: unknown): boolean {
  const owned = (exchange as unknown as DeadlineOwner).deadline;
  if (owned === undefined) return false;
  owned.abort(reason);
  return true;
}
