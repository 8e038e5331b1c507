/** JSON writes one UTF-16 unit of a string as at most six characters (`\u0001`), each one byte. */
const STRING_UNIT_BOUND = 6;
/** The longest JSON text of a number (`-1.2345678901234567e-308`). */
const NUMBER_BOUND = 24;

/**
 * An upper bound of the UTF-8 size of a parsed JSON value's text, computed without writing it;
 * `undefined` as soon as the bound passes `limit` (or for a value JSON cannot write as it is, such
 * as one with `toJSON`, a Map or a cycle, which then needs the exact JSON.stringify). Lets a small
 * document skip serialization on the fast path.
 */
export function jsonSizeBound(value: unknown, limit: number): number | undefined {
  let total = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      total += item.length * STRING_UNIT_BOUND + 2;
    } else if (typeof item === "number" || typeof item === "boolean" || item === null) {
      total += NUMBER_BOUND;
    } else if (Array.isArray(item)) {
      total += item.length + 2;
      for (const element of item) pending.push(element);
    } else if (typeof item === "object" && Object.getPrototypeOf(item) === Object.prototype) {
      const record = item as Record<string, unknown>;
      if (typeof record.toJSON === "function") return undefined;
      for (const key of Object.keys(record)) {
        total += key.length * STRING_UNIT_BOUND + 4;
        pending.push(record[key]);
      }
      total += 2;
    } else {
      return undefined;
    }
    if (total > limit) return undefined;
  }
  return total;
}
