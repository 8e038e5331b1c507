import type { RouteContext } from "../model/exchange.js";

/**
 * What a component needs of its context beyond the public API: counting the work the context must
 * wait for when it stops, taking part in a stop that runs out of time, and the signal that fires
 * when in-flight work is aborted. The components declare it and the runtime's context implements
 * it, so the components never import the runtime.
 */
export interface ComponentContext extends RouteContext {
  /** Counts work the context must wait for at shutdown (e.g. messages queued in seda). */
  trackPending(delta: number): void;
  /** The signal that fires when the context aborts in-flight work (stop past its timeout). */
  readonly shutdownSignal: AbortSignal;
  /** Registers a component's part in a stop that runs out of time (kept across restarts). */
  addShutdownParticipant(participant: ShutdownParticipant): void;
}

/**
 * A component's part in a stop that runs out of time: what it holds (queued messages, producers
 * waiting for room, callers waiting for a reply) must be settled, never silently left behind.
 */
export interface ShutdownParticipant {
  /**
   * The stop's timeout passed and in-flight work was aborted: fail every message still queued and
   * every producer still waiting, with an error saying so. Returns what it dropped, for the stop
   * error (e.g. "seda:work: 30 queued messages dropped"), or undefined when it dropped nothing.
   */
  aborted(reason: Error): string | undefined;
  /** The grace after the abort is over too: settle every caller still waiting on work that never ended. */
  abandoned(): string | undefined;
}
