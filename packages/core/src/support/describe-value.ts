/**
 * A short, bounded description of a value for error messages: `string "abc"`, `number 5`,
 * `an array of 3`, `an object`, `a function`, `null`, `undefined`. Strings longer than 40
 * characters are cut (an error message never carries a whole message body).
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return `${typeof value} ${String(value)}`;
  }
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value instanceof Date) return "a date";
  if (typeof value === "symbol") return `symbol ${String(value)}`;
  return typeof value === "function" ? "a function" : "an object";
}
