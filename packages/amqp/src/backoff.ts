/** Exponential backoff between reconnection attempts. */
export interface ReconnectOptions {
  /** Delay before the first retry (default 100 ms). */
  readonly initialDelayMs: number;
  /** Upper bound of the delay (default 5000 ms). */
  readonly maxDelayMs: number;
}

/** The delay before attempt `attempt` (1-based): doubling from the initial delay, capped, with ±20 % jitter. */
export function backoffDelay(options: ReconnectOptions, attempt: number): number {
  const base = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.min(attempt - 1, 30));
  const jitter = base * 0.2 * (Math.random() * 2 - 1);
  return Math.max(0, Math.min(options.maxDelayMs, Math.round(base + jitter)));
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
