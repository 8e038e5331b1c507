/** A deadline that a stream pushes back each time data arrives. */
export interface IdleDeadline {
  readonly signal: AbortSignal;
  /** Restarts the wait: called for every chunk read. */
  touch(): void;
  /** True when the deadline (not the caller) fired. */
  timedOut(): boolean;
  /** Removes the timer and the listener on the caller's signal. */
  clear(): void;
}

/**
 * A signal that fires when `timeoutMs` pass without a `touch()` (first the wait for the reply
 * head, then each silence between chunks), or when `parent` fires. The reason of a timeout is a
 * `TimeoutError` DOMException.
 */
export function createIdleDeadline(timeoutMs: number, parent: AbortSignal | undefined): IdleDeadline {
  const controller = new AbortController();
  let fired = false;
  let cleared = false;
  const onParentAbort = (): void => {
    clear();
    controller.abort(parent?.reason);
  };
  const timer = setTimeout(() => {
    fired = true;
    clear();
    controller.abort(new DOMException(`no data for ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  timer.unref();
  const clear = (): void => {
    cleared = true;
    clearTimeout(timer);
    parent?.removeEventListener("abort", onParentAbort);
  };
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  return {
    signal: controller.signal,
    touch: () => {
      if (!cleared) timer.refresh();
    },
    timedOut: () => fired,
    clear,
  };
}
