import type { Exchange } from "@routekit/core";
import {
  BodyCodecError,
  decodeBody,
  encodeBody,
  mediaTypeOf,
  truncateForMessage,
} from "@routekit/core/internal";
import { HttpError } from "./http-error.js";

/** A body ready to send (a request's or a reply's), with the content type it implies. */
export interface EncodedBody {
  body: string | Buffer | undefined;
  contentType: string | undefined;
}

/** What `http:` sends for a body: JSON is labelled UTF-8, and `null` sends nothing. */
const HTTP_ENCODING = { jsonContentType: "application/json; charset=utf-8", nullIsEmpty: true } as const;

/**
 * Encodes a body by core's body codec, as HTTP sends it: undefined/null send nothing, a string
 * is text/plain, a Buffer or Uint8Array is application/octet-stream, anything else is JSON.
 * A body JSON cannot carry throws the codec's `BodyCodecError`.
 */
export function encodeHttpBody(body: unknown): EncodedBody {
  const encoded = encodeBody(body, HTTP_ENCODING);
  const content = encoded.content;
  return {
    body:
      content === undefined || typeof content === "string" || Buffer.isBuffer(content)
        ? content
        : Buffer.from(content.buffer, content.byteOffset, content.byteLength),
    contentType: encoded.contentType,
  };
}

/** The exchange's body as a request body; fails with HTTP_REQUEST_INVALID, naming `where`, when it has no JSON form. */
export function encodeRequestBody(exchange: Exchange, where: string): EncodedBody {
  try {
    return encodeHttpBody(exchange.body);
  } catch (error) {
    if (!(error instanceof BodyCodecError)) throw error;
    const message =
      error.reason === "json-failed"
        ? `${where}: the body could not be serialised as JSON: ${error.detail}`
        : `${where}: a ${typeof exchange.body} body has no JSON form`;
    throw new HttpError("HTTP_REQUEST_INVALID", message, { cause: error.cause ?? error });
  }
}

/** How a response body is read: text types (and none) as UTF-8 strings, other types as bytes. */
const RESPONSE_DECODING = { textTypes: "textual", charset: "utf-8", emptyIsUndefined: true } as const;

/**
 * Decodes a response body by core's body codec: JSON types are parsed, text types (and a missing
 * content type) give a string, anything else stays a Buffer. An empty body is `undefined`.
 */
export function decodeResponseBody(bytes: Buffer, contentType: string | undefined, where: string): unknown {
  try {
    return decodeBody(bytes, contentType, RESPONSE_DECODING);
  } catch (error) {
    if (!(error instanceof BodyCodecError)) throw error;
    const message =
      error.reason === "json-too-deep"
        ? `${where}: the response is refused: ${error.detail}`
        : `${where}: the response says ${truncateForMessage(mediaTypeOf(contentType))} but is not valid JSON (${error.detail}): ${excerpt(bytes.toString("utf8"))}`;
    throw new HttpError("HTTP_RESPONSE_INVALID", message);
  }
}

/** At most 512 characters of a text, for error messages. */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= 512 ? flat : `${flat.slice(0, 512)}…`;
}
