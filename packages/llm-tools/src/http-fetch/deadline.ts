/** A deadline combined with a caller's signal. */
export interface Deadline {
  /** Fires at the deadline or when the caller's signal fires, whichever comes first. */
  readonly signal: AbortSignal;
  /** True when the deadline (not the caller) stopped the work. */
  timedOut(): boolean;
}

/** Node timers fire at once beyond this (about 24.8 days), so longer deadlines are capped to it. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * A real deadline: `AbortSignal.timeout` (undici's own timers are too coarse for short
 * deadlines) combined with the caller's signal.
 */
export function createDeadline(timeoutMs: number, signal?: AbortSignal): Deadline {
  const timeout = AbortSignal.timeout(Math.min(timeoutMs, LONGEST_TIMER_MS));
  const combined = signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
  return {
    signal: combined,
    timedOut: () => combined.aborted && combined.reason === timeout.reason,
  };
}
