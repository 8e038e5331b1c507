import type { JsonValue } from "../model/description.js";
import { REDACTED } from "../support/redact-secrets.js";
import { redactUri } from "../support/redact-uri.js";
import { isSecretName } from "../support/secret-names.js";

/** Nesting deeper than this is cut (`"[too deep]"`): a description stays small whatever an option holds. */
const MAX_DEPTH = 12;

function isErrorClass(value: Function): boolean {
  return value === Error || value.prototype instanceof Error;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Any value as JSON-serialisable data that `JSON.stringify` writes without throwing: functions
 * by name, error classes by name, other class instances by their class, bigints as text, numbers
 * JSON cannot write (NaN, Infinity) as text, dates as ISO text, cycles as `"[circular]"`. `undefined` is left out of
 * objects and becomes null elsewhere.
 */
export function toJsonValue(value: unknown, option = "", seen = new WeakSet<object>(), depth = 0): JsonValue {
  switch (typeof value) {
    case "string":
      // `key` of a step is the expression of a message key (idempotentConsumer), not a credential.
      if (option !== "key" && isSecretName(option)) return REDACTED;
      // Any text may be or hold a URI (`uri`, `deadLetterUri`, an aspect's `url`): its user info
      // and the values of its credential parameters go.
      return redactUri(value);
    case "number":
      return Number.isFinite(value) ? value : String(value);
    case "boolean":
      return value;
    case "bigint":
    case "symbol":
      return String(value);
    case "undefined":
      return null;
    case "function":
      return { kind: isErrorClass(value) ? "errorClass" : "function", name: value.name || "(anonymous)" };
  }
  if (value === null) return null;
  try {
    return objectToJson(value as object, option, seen, depth);
  } catch {
    // A getter or a proxy that throws: the description says so instead of failing.
    return "[unreadable]";
  }
}

function objectToJson(object: object, option: string, seen: WeakSet<object>, depth: number): JsonValue {
  if (seen.has(object)) return "[circular]";
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? "Invalid Date" : object.toISOString();
  if (object instanceof RegExp) return String(object);
  if (!Array.isArray(object) && !isPlainObject(object)) {
    return { kind: "object", name: object.constructor?.name || "Object" };
  }
  seen.add(object);
  try {
    if (Array.isArray(object)) return object.map((item) => toJsonValue(item, option, seen, depth + 1));
    return toJsonObject(object as Record<string, unknown>, seen, depth + 1);
  } finally {
    seen.delete(object);
  }
}

/** An object's own fields as JSON values; `undefined` fields and the keys in `skip` are left out. */
export function toJsonObject(
  object: Record<string, unknown>,
  seen = new WeakSet<object>(),
  depth = 0,
  skip: ReadonlySet<string> = new Set(),
): { [name: string]: JsonValue } {
  const result: { [name: string]: JsonValue } = {};
  for (const [key, field] of Object.entries(object)) {
    if (field === undefined || skip.has(key)) continue;
    result[key] = toJsonValue(field, key, seen, depth);
  }
  return result;
}
