import type { Exchange, Headers } from "@routekit/core";
import {
  BodyCodecError,
  copyRecord,
  DEFAULT_MAX_JSON_DEPTH,
  decodeBody as decodeWireBody,
  encodeBody as encodeWireBody,
  wireBodyOf,
} from "@routekit/core/internal";
import { AmqpError } from "./amqp-error.js";
import { isReservedHeader } from "./amqp-headers.js";

/** A message body as bytes plus the content type that says how to read them. */
export interface EncodedBody {
  readonly content: Buffer;
  readonly contentType: string | undefined;
}

const EMPTY = Buffer.alloc(0);

/**
 * Encodes a body by core's body codec: Buffers and byte arrays as they are
 * (application/octet-stream), strings as UTF-8 text (text/plain), `undefined` as an empty body
 * without a content type, anything else as JSON (application/json). `contentType` overrides the
 * type sent; strings and bytes are then sent as they are and other values as JSON.
 */
export function encodeBody(body: unknown, contentType?: string): EncodedBody {
  try {
    const encoded = encodeWireBody(body, { contentType });
    const content = encoded.content;
    return {
      content:
        content === undefined
          ? EMPTY
          : typeof content === "string"
            ? Buffer.from(content, "utf8")
            : asBuffer(content),
      contentType: encoded.contentType,
    };
  } catch (error) {
    throw amqpCodecError(error);
  }
}

/**
 * The exchange's body to send: the bytes it arrived with, as they are, while it is still in its
 * wire form (a route that never read or replaced it: nothing is decoded or encoded again), else
 * `encodeBody(exchange.body, contentType)`. A `contentType` other than the arrival's re-encodes.
 */
export function encodeExchangeBody(exchange: Exchange, contentType?: string): EncodedBody {
  const wire = wireBodyOf(exchange);
  if (wire !== undefined && (contentType === undefined || contentType === wire.contentType)) {
    return { content: asBuffer(wire.content), contentType: wire.contentType };
  }
  return encodeBody(exchange.body, contentType);
}

/**
 * `decodeBody` as a `WireBody`'s decode (a delivery's body is decoded by its first read), with the
 * consuming endpoint's `maxJsonDepth`.
 */
export function wireBodyDecoder(
  maxJsonDepth: number,
): (content: Uint8Array, contentType: string | undefined) => unknown {
  return (content, contentType) => decodeBody(asBuffer(content), contentType, maxJsonDepth);
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Decodes a received body by its content type, by core's body codec: JSON types
 * (application/json, application/*+json) to values, text/* to strings (honouring the charset),
 * anything else to the Buffer itself. An empty body without a content type is `undefined`.
 * Throws DECODE_FAILED for invalid or too deeply nested JSON and for an unknown charset.
 */
export function decodeBody(
  content: Buffer,
  contentType: unknown,
  maxJsonDepth: number = DEFAULT_MAX_JSON_DEPTH,
): unknown {
  try {
    return decodeWireBody(content, typeof contentType === "string" ? contentType : undefined, {
      maxJsonDepth,
    });
  } catch (error) {
    throw amqpCodecError(error);
  }
}

/** The codec's refusal as an `AmqpError` (ENCODE_FAILED or DECODE_FAILED), naming the endpoint option that bounds depth. */
function amqpCodecError(error: unknown): unknown {
  if (!(error instanceof BodyCodecError)) return error;
  const code = error.code === "BODY_ENCODE_FAILED" ? "ENCODE_FAILED" : "DECODE_FAILED";
  const option = error.reason === "json-too-deep" ? " (endpoint option 'maxJsonDepth')" : "";
  return new AmqpError(code, `${error.message}${option}`, { cause: error.cause ?? error });
}

/**
 * Exchange headers as AMQP headers. Only JSON-safe data crosses: strings, finite numbers,
 * booleans, null, arrays, plain objects, Dates (as ISO text) and Buffers. Functions, symbols,
 * bigints, undefined and non-finite numbers are left out, as JSON does.
 */
export function toAmqpHeaders(headers: Headers): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const name of Object.keys(headers)) {
    if (isReservedHeader(name)) continue;
    if (Buffer.byteLength(name) > 255) {
      throw new AmqpError("ENCODE_FAILED", `Header name '${name.slice(0, 40)}...' is longer than 255 bytes`);
    }
    const value = toFieldValue(headers[name], name, 0);
    if (value !== SKIP) result[name] = value;
  }
  return result;
}

const SKIP = Symbol("skip");

function toFieldValue(value: unknown, where: string, depth: number): unknown {
  if (depth > 32) throw new AmqpError("ENCODE_FAILED", `Header '${where}' is nested deeper than 32 levels`);
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : SKIP;
    case "object":
      return objectValue(value, where, depth);
    default:
      return SKIP;
  }
}

function objectValue(value: object | null, where: string, depth: number): unknown {
  if (value === null || Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? SKIP : value.toISOString();
  if (Array.isArray(value)) {
    return value.map((item, index) => {
      const converted = toFieldValue(item, `${where}[${index}]`, depth + 1);
      return converted === SKIP ? null : converted;
    });
  }
  const table: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const converted = toFieldValue(item, `${where}.${key}`, depth + 1);
    if (converted !== SKIP) table[key] = converted;
  }
  return table;
}

/**
 * AMQP headers as exchange headers, all of them: a dead letter's `x-routekit-*` headers
 * (`x-routekit-redeliveries` included) reach the route that consumes the dead-letter queue.
 * `toAmqpHeaders` leaves the redelivery counter out again, so a message sent on starts afresh.
 */
export function fromAmqpHeaders(headers: Record<string, unknown> | undefined): Headers {
  return headers === undefined ? {} : copyRecord(headers);
}
