/** The signal of one run: the caller's signal and the run's own deadline in one. */
export interface RunDeadline {
  readonly signal: AbortSignal;
  /** True once the run's own `timeoutMs` has passed (not the caller's abort). */
  readonly timedOut: boolean;
  /** Removes the timer and the listener on the caller's signal. */
  dispose(): void;
}

/**
 * Combines the caller's signal with a deadline of `timeoutMs`. Without a deadline the caller's
 * signal is used as it is; without either there is nothing to combine.
 */
export function createRunDeadline(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): RunDeadline | undefined {
  if (timeoutMs === undefined) {
    return signal === undefined ? undefined : { signal, timedOut: false, dispose() {} };
  }
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(signal?.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`the run's deadline of ${timeoutMs} ms passed`, "TimeoutError"));
  }, timeoutMs);
  if (signal !== undefined) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}
