/** How deep `copyJsonData` copies before it leaves the value to `structuredClone`. */
const MAX_DEPTH = 64;
/** How many values it copies before it leaves the value to `structuredClone` (shared parts count each time). */
const MAX_VALUES = 10_000;

/** What is left of the budget of one copy. */
interface Budget {
  values: number;
}

/**
 * A deep copy of `value` when it is small plain JSON data — strings, numbers, booleans, null,
 * arrays, and objects whose prototype is `Object.prototype` or null, at most 64 deep and 10,000
 * values — or undefined for anything else (a Date, a Map, a class instance, a function, a cycle,
 * a larger value), which the caller copies with `structuredClone` instead. Tool arguments are
 * nearly always small JSON objects, and this copies them several times faster than
 * `structuredClone`. Like it, it copies own enumerable string keys; unlike it, an object that
 * two places share is copied to each (JSON text never shares). Copies are ordinary objects: a key
 * `__proto__` stays an own data property, never a prototype.
 */
export function copyJsonData(value: unknown): unknown {
  return copy(value, 0, { values: MAX_VALUES });
}

function copy(value: unknown, depth: number, budget: Budget): unknown {
  if (typeof value !== "object" || value === null) {
    return typeof value === "function" || typeof value === "symbol" || typeof value === "bigint"
      ? undefined
      : value;
  }
  if (depth === MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return undefined;
    budget.values -= value.length;
    if (budget.values < 0) return undefined;
    const items: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const copied = copy(item, depth + 1, budget);
      if (copied === undefined && item !== undefined) return undefined;
      items.push(copied);
    }
    return items;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const keys = Object.keys(value);
  budget.values -= keys.length;
  if (budget.values < 0) return undefined;
  const result: Record<string, unknown> = {};
  for (const key of keys) {
    const item: unknown = (value as Record<string, unknown>)[key];
    const copied = copy(item, depth + 1, budget);
    if (copied === undefined && item !== undefined) return undefined;
    if (key === "__proto__") {
      Object.defineProperty(result, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      result[key] = copied;
    }
  }
  return result;
}
