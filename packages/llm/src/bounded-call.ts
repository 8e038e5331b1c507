import { createDeadline, type SignalSource } from "@routekit/core/internal";

/** How a call bounded by a signal and a deadline ended. */
export type BoundedOutcome<TResult> =
  | { status: "done"; value: TResult }
  | { status: "failed"; error: unknown }
  | { status: "timed-out" }
  | { status: "aborted"; reason: unknown };

/**
 * Runs `start` bounded by `signal` and `timeoutMs`, and settles at the first of: the call settles,
 * the deadline passes, the signal fires — even when the call ignores its signal. Without a
 * deadline the call sees `signal` itself (no controller, no timer: one listener); with one it sees
 * a signal that fires at either, aborted with `timeoutReason()` at the deadline. The timer and
 * the listener are removed when it settles. Never rejects.
 */
export function boundedCall<TResult>(
  start: (signal: AbortSignal | undefined) => TResult | Promise<TResult>,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  timeoutReason?: () => unknown,
): Promise<BoundedOutcome<TResult>> {
  if (signal?.aborted) return Promise.resolve({ status: "aborted", reason: signal.reason });
  if (signal === undefined && timeoutMs === undefined)
    return invoke(start, undefined).then<BoundedOutcome<TResult>, BoundedOutcome<TResult>>(done, failed);
  return new Promise((resolve) => {
    const controller = timeoutMs === undefined ? undefined : new AbortController();
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (outcome: BoundedOutcome<TResult>): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => {
      settle({ status: "aborted", reason: signal?.reason });
      controller?.abort(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    if (controller !== undefined) {
      timer = setTimeout(() => {
        settle({ status: "timed-out" });
        controller.abort(
          timeoutReason?.() ?? new DOMException(`the deadline of ${timeoutMs} ms passed`, "TimeoutError"),
        );
      }, timeoutMs);
    }
    invoke(start, controller?.signal ?? signal).then(
      (value) => settle({ status: "done", value }),
      (error: unknown) => settle({ status: "failed", error }),
    );
  });
}

const CALLER_BOUNDS = Symbol("routekit.llm.boundedByCaller");

/**
 * Marks a tool call context whose signal and deadline the caller (the llm loop, an MCP server)
 * already enforces around the whole call, so a tool's own wrapper does not add a second listener
 * and timer. `deadline`, when given, is the caller's deadline itself — the context's `signal` is
 * its signal — and it also fires when the route context aborts in-flight work (its owner is in
 * `shutdownDeadlinesOf(context)`): a tool route then runs its exchange under it
 * (`createExchangeUnder`) instead of giving the exchange a deadline of its own, and the signal is
 * made only if read.
 */
export function boundedByCaller<TContext extends object>(
  context: TContext,
  deadline?: SignalSource,
): TContext {
  (context as Record<symbol, unknown>)[CALLER_BOUNDS] = deadline ?? true;
  return context;
}

/** True for a context marked by `boundedByCaller`. */
export function isBoundedByCaller(context: object): boolean {
  return (context as Record<symbol, unknown>)[CALLER_BOUNDS] !== undefined;
}

/** The caller's deadline a context was marked with (see `boundedByCaller`), if any. */
export function callerDeadlineOf(context: object): SignalSource | undefined {
  const mark = (context as Record<symbol, unknown>)[CALLER_BOUNDS];
  return typeof mark === "object" ? (mark as SignalSource) : undefined;
}

/** The signal of one run: the caller's signal and the run's own deadline in one. */
export interface RunDeadline {
  readonly signal: AbortSignal;
  /** True once the run's own `timeoutMs` has passed (not the caller's abort). */
  timedOut(): boolean;
  /** Removes the timer and the listener on the caller's signal. */
  clear(): void;
}

const NEVER_TIMED_OUT = (): boolean => false;
const NOTHING_TO_CLEAR = (): void => {};

/**
 * One deadline for a whole run: the caller's signal as it is when there is no `timeoutMs`
 * (nothing allocated), otherwise one signal firing at either; undefined when there is neither.
 */
export function runDeadline(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): RunDeadline | undefined {
  if (timeoutMs !== undefined) return createDeadline(timeoutMs, signal);
  return signal === undefined ? undefined : { signal, timedOut: NEVER_TIMED_OUT, clear: NOTHING_TO_CLEAR };
}

function done<TResult>(value: TResult): BoundedOutcome<TResult> {
  return { status: "done", value };
}

function failed<TResult>(error: unknown): BoundedOutcome<TResult> {
  return { status: "failed", error };
}

/** Calls `start`, turning a synchronous throw into a rejection. */
function invoke<TResult>(
  start: (signal: AbortSignal | undefined) => TResult | Promise<TResult>,
  signal: AbortSignal | undefined,
): Promise<TResult> {
  try {
    return Promise.resolve(start(signal));
  } catch (error) {
    return Promise.reject(error);
  }
}
