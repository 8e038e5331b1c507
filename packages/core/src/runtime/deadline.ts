/** Node timers fire at once beyond this (about 24.8 days), so longer deadlines are capped to it. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A signal that fires at a deadline or when any parent signal fires, whichever comes first. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True when the deadline (not a parent) fired. */
  timedOut(): boolean;
  /** Cancels the timer and stops following the parents (call it when the work is done). */
  clear(): void;
}

/**
 * A deadline combined with parent signals. Prefer it to `AbortSignal.any([AbortSignal.timeout(ms),
 * ...])`: on Node 20 a timeout signal held only by such a composite can be garbage-collected
 * before it fires, so the deadline silently never comes. Here the timer holds the controller
 * strongly (and is unref'd, so it never keeps the process alive). The reason is a `TimeoutError`
 * DOMException, as `AbortSignal.timeout` gives.
 */
export function createDeadline(
  timeoutMs: number,
  ...parents: ReadonlyArray<AbortSignal | undefined>
): Deadline {
  const controller = new AbortController();
  let fired = false;
  const follow: Array<[AbortSignal, () => void]> = [];
  const clear = (): void => {
    clearTimeout(timer);
    for (const [parent, listener] of follow) parent.removeEventListener("abort", listener);
    follow.length = 0;
  };
  const timer = setTimeout(
    () => {
      fired = true;
      clear();
      controller.abort(new DOMException(`The deadline of ${timeoutMs} ms passed`, "TimeoutError"));
    },
    Math.min(Math.max(0, timeoutMs), LONGEST_TIMER_MS),
  );
  timer.unref();
  for (const parent of parents) {
    if (parent === undefined) continue;
    if (parent.aborted) {
      clear();
      controller.abort(parent.reason);
      break;
    }
    const listener = (): void => {
      clear();
      controller.abort(parent.reason);
    };
    parent.addEventListener("abort", listener, { once: true });
    follow.push([parent, listener]);
  }
  return { signal: controller.signal, timedOut: () => fired, clear };
}
