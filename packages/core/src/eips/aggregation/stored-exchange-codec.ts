import { withoutTransientProperties } from "../../runtime/property-keys.js";
import type { StoredExchange } from "./aggregation-repository.js";

/** The marker of the text a shared repository stores for a group; anything else is foreign. */
export const STORED_EXCHANGE_FORMAT = "routekit-exchange/1";

// Values JSON cannot hold travel as a tagged object: { "$rk": tag, value }. An object of the
// message that has a "$rk" key of its own is wrapped as { "$rk": "object", value } so it is never
// read back as a tag.
const TAG = "$rk";

function encodeValue(value: unknown, path: string, seen: Set<object>): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    return Number.isFinite(value) ? value : { [TAG]: "number", value: String(value) };
  }
  if (typeof value === "bigint") return { [TAG]: "bigint", value: value.toString() };
  if (typeof value === "undefined") return { [TAG]: "undefined" };
  if (typeof value !== "object") {
    throw new TypeError(`${path} is a ${typeof value}, which cannot be stored`);
  }
  if (value instanceof Uint8Array) {
    return {
      [TAG]: "bytes",
      value: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64"),
    };
  }
  if (value instanceof Date) return { [TAG]: "date", value: value.toISOString() };
  if (seen.has(value)) throw new TypeError(`${path} refers back to itself (a cycle), which cannot be stored`);
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item, index) => encodeValue(item, `${path}[${index}]`, seen));
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === "function" || typeof item === "symbol") continue;
      result[key] = encodeValue(item, `${path}.${key}`, seen);
    }
    return TAG in result ? { [TAG]: "object", value: result } : result;
  } finally {
    seen.delete(value);
  }
}

function decodeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeValue);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  const tag = record[TAG];
  if (tag === undefined) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(record)) result[key] = decodeValue(item);
    return result;
  }
  switch (tag) {
    case "bytes":
      return Buffer.from(String(record.value), "base64");
    case "date":
      return new Date(String(record.value));
    case "bigint":
      return BigInt(String(record.value));
    case "number":
      return Number(record.value);
    case "undefined":
      return undefined;
    case "object": {
      const inner = record.value as Record<string, unknown>;
      const result: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(inner)) result[key] = decodeValue(item);
      return result;
    }
    default:
      throw new TypeError(`an unknown value tag ${JSON.stringify(tag)}`);
  }
}

/**
 * The text a shared repository stores for an exchange: JSON with a format marker. Buffers, dates,
 * bigints and non-finite numbers survive the round trip; functions and transient properties
 * (`definePropertyKey({ transient: true })`: state local to the process, such as a trace span) are
 * left out; a cycle throws.
 */
export function encodeStoredExchange(exchange: StoredExchange): string {
  return JSON.stringify({
    format: STORED_EXCHANGE_FORMAT,
    body: encodeValue(exchange.body, "body", new Set()),
    headers: encodeValue(exchange.headers, "headers", new Set()),
    properties: encodeValue(withoutTransientProperties(exchange.properties), "properties", new Set()),
  });
}

/** Reads what `encodeStoredExchange` wrote; throws a TypeError saying what was found instead. */
export function decodeStoredExchange(text: string): StoredExchange {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TypeError(`expected JSON written by routekit, found text that is not JSON: ${preview(text)}`);
  }
  const record = parsed as Record<string, unknown> | null;
  if (typeof record !== "object" || record === null || record.format !== STORED_EXCHANGE_FORMAT) {
    throw new TypeError(
      `expected an exchange in the format '${STORED_EXCHANGE_FORMAT}', found ${preview(text)}`,
    );
  }
  const headers = decodeValue(record.headers);
  const properties = decodeValue(record.properties);
  if (
    typeof headers !== "object" ||
    headers === null ||
    typeof properties !== "object" ||
    properties === null
  ) {
    throw new TypeError(`expected headers and properties objects, found ${preview(text)}`);
  }
  return {
    body: decodeValue(record.body),
    headers: headers as Record<string, unknown>,
    properties: properties as Record<string, unknown>,
  };
}

function preview(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
