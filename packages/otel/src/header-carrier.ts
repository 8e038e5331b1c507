import { type Context, ROOT_CONTEXT, type TextMapGetter, type TextMapSetter } from "@opentelemetry/api";
import type { Headers } from "@routekit/core";
import type { Telemetry } from "./telemetry.js";

/**
 * Where trace context travels in an exchange's headers, as the endpoint's component declares
 * (`ComponentTraits.headerPrefixes`). Headers cross `seda:` hand-offs and RabbitMQ messages under
 * their own names (`traceparent`, `tracestate`: prefix ""); the http: client sends
 * `http.request.header.*` headers, and the http: server files request headers under
 * `http.header.*`.
 */
export type HeaderPrefix = string;

/** Longest header value read as trace context; longer ones are ignored (a W3C one is far shorter). */
const MAX_VALUE_LENGTH = 8192;

function readValue(value: unknown): string | undefined {
  // A value arriving from a broker or a client is untrusted: only a single, bounded string counts.
  // A repeated HTTP header (an array) is ambiguous and ignored, as W3C Trace Context says.
  if (typeof value === "string") return value.length <= MAX_VALUE_LENGTH ? value : undefined;
  if (Buffer.isBuffer(value) && value.length <= MAX_VALUE_LENGTH) return value.toString("latin1");
  return undefined;
}

const getters = new Map<HeaderPrefix, TextMapGetter<Headers>>();

function getterFor(prefix: HeaderPrefix): TextMapGetter<Headers> {
  let getter = getters.get(prefix);
  if (getter === undefined) {
    getter = {
      keys: (carrier) =>
        Object.keys(carrier)
          .filter((name) => name.startsWith(prefix))
          .map((name) => name.slice(prefix.length)),
      get: (carrier, key) => readValue(carrier[prefix + key]),
    };
    getters.set(prefix, getter);
  }
  return getter;
}

/**
 * The trace context carried by `headers`, or undefined when they carry none (or only malformed
 * values, which the propagator ignores).
 */
export function extractContext(telemetry: Telemetry, headers: Headers, prefix: HeaderPrefix): Context {
  return telemetry.propagator.extract(ROOT_CONTEXT, headers, getterFor(prefix));
}

const COLLECTOR: TextMapSetter<Array<readonly [string, string]>> = {
  set: (fields, key, value) => void fields.push([key, value]),
};

/** The header names and values the propagator writes for `context` (`traceparent`, `tracestate`). */
export function traceFields(
  telemetry: Telemetry,
  context: Context,
): ReadonlyArray<readonly [string, string]> {
  const fields: Array<readonly [string, string]> = [];
  telemetry.propagator.inject(context, fields, COLLECTOR);
  return fields;
}

/**
 * Writes `fields` into `headers` under each of `prefixes`, for the next hop, and returns what
 * puts those headers back as they were — on the headers the exchange has then, which a reply may
 * have replaced — so the trace context of one send never lingers on the exchange.
 */
export function writeFields(
  fields: ReadonlyArray<readonly [string, string]>,
  headers: Headers,
  prefixes: readonly HeaderPrefix[],
): (current: Headers) => void {
  const saved: Array<{ name: string; had: boolean; value: unknown }> = [];
  for (const prefix of prefixes) {
    for (const [key, value] of fields) {
      const name = prefix + key;
      saved.push({ name, had: Object.hasOwn(headers, name), value: headers[name] });
      headers[name] = value;
    }
  }
  return (current) => {
    for (let index = saved.length - 1; index >= 0; index--) {
      const { name, had, value } = saved[index]!;
      if (had) current[name] = value;
      else delete current[name];
    }
  };
}
