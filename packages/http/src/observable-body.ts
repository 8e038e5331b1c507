import type { ObservableLike as CoreObservableLike } from "@routekit/core/internal";

/** The part of an RxJS `Observable` (or any TC39-style observable) the server uses: the core's, as `from()` takes. */
export type ObservableLike = CoreObservableLike<unknown>;

/** True for an observable body: an object with `subscribe` and `pipe` (RxJS) or `Symbol.observable`. */
export function isObservableBody(body: unknown): body is ObservableLike {
  if (typeof body !== "object" || body === null) return false;
  const candidate = body as Record<PropertyKey, unknown>;
  if (typeof candidate.subscribe !== "function") return false;
  const interop = (Symbol as { observable?: symbol }).observable;
  return (
    typeof candidate.pipe === "function" ||
    typeof candidate["@@observable"] === "function" ||
    (interop !== undefined && typeof candidate[interop] === "function")
  );
}

/**
 * The values of `observable` as an `AsyncIterable`, subscribed when iteration starts. An
 * observable pushes and cannot be slowed down: values that arrive faster than the client reads
 * wait in memory (use a bounded source, or operators such as `bufferTime`/`throttleTime`, for
 * fast producers). Completion ends the iteration, an error makes it throw after the values before
 * it, and stopping the iteration (the client went away) unsubscribes.
 */
export function observableToIterable(observable: ObservableLike): AsyncIterable<unknown> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<unknown> {
      const values: unknown[] = [];
      let ended: { error?: unknown; failed: boolean } | undefined;
      let wake: (() => void) | undefined;
      const notify = (): void => {
        const resolve = wake;
        wake = undefined;
        resolve?.();
      };
      const subscription = observable.subscribe({
        next(value) {
          values.push(value);
          notify();
        },
        error(error) {
          ended = { error, failed: true };
          notify();
        },
        complete() {
          ended = { failed: false };
          notify();
        },
      });
      let closed = false;
      return {
        async next(): Promise<IteratorResult<unknown>> {
          for (;;) {
            if (closed) return { done: true, value: undefined };
            if (values.length > 0) return { done: false, value: values.shift() };
            if (ended !== undefined) {
              closed = true;
              if (ended.failed) throw ended.error;
              return { done: true, value: undefined };
            }
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        },
        async return(): Promise<IteratorResult<unknown>> {
          if (!closed) {
            closed = true;
            subscription.unsubscribe();
            notify();
          }
          return { done: true, value: undefined };
        },
      };
    },
  };
}
