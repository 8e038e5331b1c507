/**
 * Wraps an options check so that it runs once per options object: later calls with the same
 * object return the first result (options are read once; change them by passing a new object).
 * A step resolves its fixed options when the route is added and then on every message for free.
 */
export function resolveOncePerObject<TOptions, TResolved>(
  resolve: (options: TOptions) => TResolved,
): (options: TOptions) => TResolved {
  const resolved = new WeakMap<object, TResolved>();
  return (options) => {
    const isObject = typeof options === "object" && options !== null;
    const cached = isObject ? resolved.get(options) : undefined;
    if (cached !== undefined) return cached;
    const result = resolve(options);
    if (isObject) resolved.set(options, result);
    return result;
  };
}
