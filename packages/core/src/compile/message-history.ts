import { RoutekitError } from "../errors/errors.js";
import type { Exchange } from "../model/exchange.js";
import type { StepInterceptor } from "./step-interceptor.js";
import { runThen } from "./step-timing.js";

/** One step an exchange went through (Camel's message history). */
export interface MessageHistoryEntry {
  readonly routeId: string;
  /** The step's path in its route, as step events and error messages name it. */
  readonly stepPath: string;
  /** When the step started, in milliseconds since the epoch. */
  readonly startedAt: number;
  /** How long the step took; undefined while it is still running. */
  readonly durationMs: number | undefined;
}

/** `createContext({ messageHistory })`: true, or how many entries an exchange keeps at most. */
export type MessageHistoryOption = boolean | { maxEntries?: number };

/** Entries an exchange keeps by default: the most recent ones, older ones dropped. */
export const DEFAULT_HISTORY_ENTRIES = 1000;

const EMPTY: readonly MessageHistoryEntry[] = Object.freeze([]);
const histories = new WeakMap<
  Exchange,
  Array<{ -readonly [K in keyof MessageHistoryEntry]: MessageHistoryEntry[K] }>
>();

/**
 * The steps `exchange` went through, oldest first, when the context records message history
 * (`createContext({ messageHistory: true })`); empty otherwise. Each exchange has its own: a split
 * part or a multicast copy starts with an empty history.
 */
export function messageHistoryOf(exchange: Exchange): readonly MessageHistoryEntry[] {
  return histories.get(exchange) ?? EMPTY;
}

/** The bound on entries per exchange, or 0 when history is off; a bad option fails naming it. */
export function checkMessageHistory(option: unknown): number {
  if (option === undefined || option === false) return 0;
  if (option === true) return DEFAULT_HISTORY_ENTRIES;
  if (typeof option === "object" && option !== null && !Array.isArray(option)) {
    const maxEntries = (option as { maxEntries?: unknown }).maxEntries;
    if (maxEntries === undefined) return DEFAULT_HISTORY_ENTRIES;
    if (typeof maxEntries === "number" && Number.isInteger(maxEntries) && maxEntries >= 1) return maxEntries;
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `createContext(): messageHistory.maxEntries must be an integer ≥ 1, found ${typeof maxEntries === "number" ? maxEntries : typeof maxEntries}`,
    );
  }
  throw new RoutekitError(
    "PLUGIN_INVALID",
    `createContext(): messageHistory must be true, false or { maxEntries }, found ${option === null ? "null" : Array.isArray(option) ? "an array" : typeof option}`,
  );
}

/** The interceptor that records each step on the exchange, keeping at most `maxEntries`. */
export function messageHistoryInterceptor(maxEntries: number): StepInterceptor {
  return {
    name: "message-history",
    wrapStep: (step, next) => (exchange) => {
      let entries = histories.get(exchange);
      if (entries === undefined) {
        entries = [];
        histories.set(exchange, entries);
      } else if (entries.length >= maxEntries) {
        entries.splice(0, entries.length - maxEntries + 1);
      }
      const entry = {
        routeId: step.routeId,
        stepPath: step.path,
        startedAt: Date.now(),
        durationMs: undefined,
      };
      const timed: { -readonly [K in keyof MessageHistoryEntry]: MessageHistoryEntry[K] } = entry;
      entries.push(timed);
      const started = performance.now();
      return runThen(next, exchange, () => {
        timed.durationMs = performance.now() - started;
      });
    },
  };
}
