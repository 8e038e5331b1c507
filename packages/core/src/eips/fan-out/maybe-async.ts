/** True for promises and other thenables (e.g. what a custom repository returns). */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** Runs `next` on a value now, or once it resolves when it is a promise: no promise for plain values. */
export function andThen<TValue, TResult>(
  value: TValue | PromiseLike<TValue>,
  next: (value: TValue) => TResult | PromiseLike<TResult>,
): TResult | Promise<TResult> {
  if (isPromiseLike(value)) return Promise.resolve(value).then(next);
  return next(value) as TResult | Promise<TResult>;
}
