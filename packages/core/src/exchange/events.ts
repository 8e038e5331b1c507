import type { Exchange } from "../model/exchange.js";

/**
 * Events by type. Other packages add their own by declaration merging:
 * `declare module "@routekit/core" { interface RoutekitEvents { "tool-call-started": {...} } }`.
 */
export interface RoutekitEvents {
  "exchange-created": { exchange: Exchange; routeId: string };
  "exchange-completed": { exchange: Exchange; routeId: string; durationMs: number };
  "exchange-failed": { exchange: Exchange; routeId: string; durationMs: number; error: Error };
  "exchange-redelivered": {
    exchange: Exchange;
    routeId: string;
    attempt: number;
    delayMs: number;
    error: Error;
  };
  /** A step of a route is about to run (`stepPath` names it, e.g. `#2 choice when #1 > #1 to(mock:a)`). */
  "step-started": { exchange: Exchange; routeId: string; stepPath: string };
  /** A step finished without an error on the exchange. */
  "step-completed": { exchange: Exchange; routeId: string; stepPath: string; durationMs: number };
  /** A step threw, rejected or left an error on the exchange (each redelivery attempt counts). */
  "step-failed": { exchange: Exchange; routeId: string; stepPath: string; durationMs: number; error: Error };
  "route-added": { routeId: string };
  "route-started": { routeId: string };
  "route-stopped": { routeId: string };
  "route-removed": { routeId: string };
  "context-started": Record<string, never>;
  "context-stopped": Record<string, never>;
}

export type RoutekitEventType = keyof RoutekitEvents;
export type RoutekitEventListener<TType extends RoutekitEventType> = (event: RoutekitEvents[TType]) => void;

const STEP_EVENTS: ReadonlySet<string> = new Set(["step-started", "step-completed", "step-failed"]);

/**
 * A typed event bus. `has(type)` is a property read, so emitters skip building
 * an event object when nobody listens: events cost nothing unobserved.
 */
export class EventBus {
  readonly #listeners = new Map<string, Set<(event: never) => void>>();
  /** Kept up to date on every subscribe and unsubscribe, so hot paths read a field, not the map. */
  #quiet = true;
  #observingSteps = false;

  #changed(): void {
    const listeners = this.#listeners;
    this.#quiet = listeners.size === 0;
    this.#observingSteps =
      listeners.has("step-started") || listeners.has("step-completed") || listeners.has("step-failed");
  }

  /** Subscribes; returns the function that unsubscribes. */
  on<TType extends RoutekitEventType>(type: TType, listener: RoutekitEventListener<TType>): () => void {
    let listeners = this.#listeners.get(type);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(type, listeners);
    }
    listeners.add(listener as (event: never) => void);
    if (this.#quiet || STEP_EVENTS.has(type)) this.#changed();
    return () => this.off(type, listener);
  }

  off<TType extends RoutekitEventType>(type: TType, listener: RoutekitEventListener<TType>): void {
    const listeners = this.#listeners.get(type);
    if (listeners === undefined) return;
    listeners.delete(listener as (event: never) => void);
    if (listeners.size === 0) {
      this.#listeners.delete(type);
      this.#changed();
    }
  }

  /** True when nobody listens to anything: lets hot paths skip every event check at once. */
  get quiet(): boolean {
    return this.#quiet;
  }

  /**
   * True when someone listens to a step event (`step-started`, `step-completed`, `step-failed`):
   * the one check each run of a block of steps makes, so step events cost nothing while nobody
   * listens. It changes the moment a listener subscribes, also for routes added and started before.
   */
  get observingSteps(): boolean {
    return this.#observingSteps;
  }

  /** True when someone listens to `type`. */
  has(type: RoutekitEventType): boolean {
    return this.#listeners.has(type);
  }

  /** Delivers an event; a listener that throws is reported on stderr and never breaks routing. */
  emit<TType extends RoutekitEventType>(type: TType, event: RoutekitEvents[TType]): void {
    const listeners = this.#listeners.get(type);
    if (listeners === undefined) return;
    for (const listener of listeners) {
      try {
        (listener as RoutekitEventListener<TType>)(event);
      } catch (error) {
        process.emitWarning(`routekit: a '${type}' event listener threw: ${String(error)}`);
      }
    }
  }
}
