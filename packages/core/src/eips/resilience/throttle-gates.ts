import { WaitLine } from "./wait-line.js";

/** Decides when an exchange may pass a throttle. */
export interface ThrottleGate {
  readonly line: WaitLine;
  /** Takes a permit when one is free and nobody waits before us. */
  tryEnter(): boolean;
  /** Waits in line for a permit. */
  wait(signal: AbortSignal): Promise<void>;
  /** Gives a permit back (concurrent mode); a no-op for the rate mode. */
  leave(): void;
}

/**
 * At most `maxRequests` starts in any window of `periodMs` (a sliding window over the last
 * `maxRequests` start times); the others wait in order until the oldest start leaves the window.
 */
export function createRateGate(maxRequests: number, periodMs: number): ThrottleGate {
  const line = new WaitLine();
  const starts = new Array<number>(maxRequests).fill(0);
  let used = 0;
  let oldest = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const take = (now: number): boolean => {
    if (used < maxRequests) {
      starts[(oldest + used) % maxRequests] = now;
      used++;
      return true;
    }
    if (now - starts[oldest]! < periodMs) return false;
    starts[oldest] = now;
    oldest = (oldest + 1) % maxRequests;
    return true;
  };
  const schedule = (): void => {
    if (timer !== undefined || line.length === 0) return;
    const delay = used < maxRequests ? 0 : starts[oldest]! + periodMs - Date.now();
    timer = setTimeout(drain, Math.max(0, delay));
  };
  const drain = (): void => {
    timer = undefined;
    while (line.length > 0 && take(Date.now())) line.grant();
    schedule();
  };

  return {
    line,
    tryEnter: () => line.length === 0 && take(Date.now()),
    wait(signal) {
      const turn = line.add(signal);
      schedule();
      return turn;
    },
    leave: () => undefined,
  };
}

/** At most `limit` exchanges between enter and leave; the others wait in order. */
export function createConcurrencyGate(limit: number): ThrottleGate {
  const line = new WaitLine();
  let inFlight = 0;
  return {
    line,
    tryEnter() {
      if (line.length > 0 || inFlight >= limit) return false;
      inFlight++;
      return true;
    },
    wait: (signal) => line.add(signal),
    leave() {
      // The permit goes straight to the next waiter, so a newcomer cannot jump the line.
      if (!line.grant()) inFlight--;
    },
  };
}
