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
  "route-added": { routeId: string };
  "route-started": { routeId: string };
  "route-stopped": { routeId: string };
  "route-removed": { routeId: string };
  "context-started": Record<string, never>;
  "context-stopped": Record<string, never>;
}

export type RoutekitEventType = keyof RoutekitEvents;
export type RoutekitEventListener<TType extends RoutekitEventType> = (event: RoutekitEvents[TType]) => void;

/**
 * A typed event bus. `has(type)` is a property read, so emitters skip building
 * an event object when nobody listens: events cost nothing unobserved.
 */
export class EventBus {
  readonly #listeners = new Map<string, Set<(event: never) => void>>();

  /** Subscribes; returns the function that unsubscribes. */
  on<TType extends RoutekitEventType>(type: TType, listener: RoutekitEventListener<TType>): () => void {
    let listeners = this.#listeners.get(type);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(type, listeners);
    }
    listeners.add(listener as (event: never) => void);
    return () => this.off(type, listener);
  }

  off<TType extends RoutekitEventType>(type: TType, listener: RoutekitEventListener<TType>): void {
    const listeners = this.#listeners.get(type);
    if (listeners === undefined) return;
    listeners.delete(listener as (event: never) => void);
    if (listeners.size === 0) this.#listeners.delete(type);
  }

  /** True when nobody listens to anything: lets hot paths skip every event check at once. */
  get quiet(): boolean {
    return this.#listeners.size === 0;
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
