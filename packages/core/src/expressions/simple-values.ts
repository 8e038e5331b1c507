import { RoutekitError } from "../errors/errors.js";
import { describeValue } from "../support/describe-value.js";

/** Keys that would lead into prototypes; no expression can read them. */
export const BLOCKED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);
const textDecoder = new TextDecoder();

/**
 * Reads `key` of `value` like optional chaining: undefined/null and primitives yield undefined,
 * prototype keys and function-valued properties are never returned.
 */
export function readProperty(value: unknown, key: string): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") {
    if (key === "length") return value.length;
    return undefined;
  }
  if (typeof value !== "object" || BLOCKED_KEYS.has(key)) return undefined;
  if (!(key in value)) return undefined;
  const result = (value as Record<string, unknown>)[key];
  return typeof result === "function" ? undefined : result;
}

/** Reads `value[index]`: numbers index arrays and strings (negative counts from the end), text reads a key. */
export function readIndex(value: unknown, index: unknown): unknown {
  if (typeof index === "number") {
    if (!Number.isInteger(index)) return undefined;
    if (Array.isArray(value)) return value.at(index);
    if (typeof value === "string") return value.at(index);
    return readProperty(value, String(index));
  }
  if (typeof index === "string") return readProperty(value, index);
  return undefined;
}

/** Renders a value as template text: undefined/null are empty, dates ISO, bytes UTF-8, objects JSON. */
export function toText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value instanceof Uint8Array) return textDecoder.decode(value);
  try {
    return JSON.stringify(value) ?? "";
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RoutekitError(
      "EXPRESSION_FAILED",
      `cannot render ${describeValue(value)} as JSON text: ${reason}`,
    );
  }
}

/** A number from a number, a date, or text holding a number; `undefined` when there is none. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (value instanceof Date) return value.getTime();
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

/**
 * Equality as the simple language defines it: identical values, null equals undefined, a number
 * equals text holding that number, a boolean equals "true"/"false", dates by time.
 */
export function looseEquals(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (left === null || left === undefined || right === null || right === undefined) {
    return (left === null || left === undefined) && (right === null || right === undefined);
  }
  if (typeof left === "number" && typeof right === "string") return asNumber(right) === left;
  if (typeof left === "string" && typeof right === "number") return asNumber(left) === right;
  if (typeof left === "boolean" && typeof right === "string") return String(left) === right;
  if (typeof left === "string" && typeof right === "boolean") return left === String(right);
  if (left instanceof Date && right instanceof Date) return left.getTime() === right.getTime();
  return false;
}

/**
 * Orders two values: numbers (and dates, and numeric text against a number) numerically, text
 * against text by code units. `undefined` when either is null/undefined; `null` when not comparable.
 */
export function compareValues(left: unknown, right: unknown): number | undefined | null {
  if (left === null || left === undefined || right === null || right === undefined) return undefined;
  if (typeof left === "string" && typeof right === "string") return left < right ? -1 : left > right ? 1 : 0;
  const leftNumber = asNumber(left);
  const rightNumber = asNumber(right);
  if (leftNumber === undefined || rightNumber === undefined) return null;
  return leftNumber - rightNumber;
}

/** Whether `value` is in `list` by the language's equality. */
export function includesLoosely(list: readonly unknown[], value: unknown): boolean {
  for (const item of list) {
    if (looseEquals(item, value)) return true;
  }
  return false;
}

/** `contains` / `startsWith` / `endsWith`: on text; `contains` on an array tests membership. Null never matches. */
export function textMatches(
  operator: "contains" | "startsWith" | "endsWith",
  left: unknown,
  right: unknown,
): boolean {
  if (left === null || left === undefined || right === null || right === undefined) return false;
  if (operator === "contains" && Array.isArray(left)) return includesLoosely(left, right);
  const text = toText(left);
  const part = toText(right);
  if (operator === "contains") return text.includes(part);
  return operator === "startsWith" ? text.startsWith(part) : text.endsWith(part);
}
