/** JSON writes one UTF-16 unit of a string as at most six characters (`\u0001`), each one byte. */
const STRING_UNIT_BOUND = 6;
/** The longest JSON text of a number (`-1.2345678901234567e-308`). */
const NUMBER_BOUND = 24;

/**
 * An upper bound of the UTF-8 size of a parsed JSON value's text, computed without writing it;
 * `undefined` as soon as the bound passes `limit` (a cycle passes any limit), and -1 for a value
 * that is not plain JSON data: JSON writes it otherwise than it is (one with `toJSON`, a Map, a
 * function or `undefined` inside), so only its JSON text says what it holds. Lets a small
 * document skip serialization on the fast path.
 *
 * Containers wait on a stack; the primitives in them are counted where they are found. A plain
 * object's keys are read with `for…in`, which needs no array of keys (`Object.keys` made one per
 * object, and this walk took twice as long): it also counts enumerable keys an object inherits,
 * which JSON would leave out, so the bound can only grow, never fall below the real size.
 */
export function jsonSizeBound(value: unknown, limit: number): number | undefined {
  let total = 0;
  const pending: object[] = [];
  let item: unknown = value;
  for (;;) {
    if (Array.isArray(item)) {
      total += item.length + 2;
      for (let index = 0; index < item.length; index++) {
        const size = primitiveSize(item[index], pending);
        if (size < 0) return -1;
        total += size;
      }
    } else if (
      typeof item === "object" &&
      item !== null &&
      Object.getPrototypeOf(item) === Object.prototype
    ) {
      const record = item as Record<string, unknown>;
      if (typeof record.toJSON === "function") return -1;
      total += 2;
      for (const key in record) {
        const size = primitiveSize(record[key], pending);
        if (size < 0) return -1;
        total += key.length * STRING_UNIT_BOUND + 4 + size;
      }
    } else {
      const size = primitiveSize(item, pending);
      if (size <= 0) return -1;
      total += size;
    }
    if (total > limit) return undefined;
    const next = pending.pop();
    if (next === undefined) return total;
    item = next;
  }
}

/** A primitive's bound; 0 for an object (pushed on `pending` to walk), -1 for what JSON cannot write as it is. */
function primitiveSize(value: unknown, pending: object[]): number {
  if (typeof value === "string") return value.length * STRING_UNIT_BOUND + 2;
  if (typeof value === "number" || typeof value === "boolean" || value === null) return NUMBER_BOUND;
  if (typeof value === "object") {
    pending.push(value);
    return 0;
  }
  return -1;
}
