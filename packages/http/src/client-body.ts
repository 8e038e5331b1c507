import type { Exchange } from "@routekit/core";
import { checkJsonDepth, DEFAULT_MAX_JSON_DEPTH, jsonDepthMessage } from "@routekit/core/internal";
import { HttpError } from "./http-error.js";
import { isJsonMediaType, mediaTypeOf } from "./read-request-body.js";

/** A request body ready to send, with the content type it implies. */
export interface EncodedBody {
  body: string | Buffer | undefined;
  contentType: string | undefined;
}

/**
 * Encodes the exchange body for the wire: undefined/null send nothing, a string is
 * text/plain, a Buffer or Uint8Array is application/octet-stream, anything else is JSON.
 */
export function encodeRequestBody(exchange: Exchange, where: string): EncodedBody {
  const body = exchange.body;
  if (body == null) return { body: undefined, contentType: undefined };
  if (typeof body === "string") return { body, contentType: "text/plain; charset=utf-8" };
  if (body instanceof Uint8Array) {
    return {
      body: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      contentType: "application/octet-stream",
    };
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    throw new HttpError(
      "HTTP_REQUEST_INVALID",
      `${where}: the body could not be serialised as JSON: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (text === undefined) {
    throw new HttpError("HTTP_REQUEST_INVALID", `${where}: a ${typeof body} body has no JSON form`);
  }
  return { body: text, contentType: "application/json; charset=utf-8" };
}

const TEXT_TYPES =
  /^(?:text\/.*|application\/(?:[\w.+-]+\+)?xml|application\/(?:x-www-form-urlencoded|javascript|ecmascript))$/;

/**
 * Decodes a response body by its content type: JSON types are parsed, text types (and a missing
 * content type) give a string, anything else stays a Buffer. An empty body is `undefined`.
 */
export function decodeResponseBody(bytes: Buffer, contentType: string | undefined, where: string): unknown {
  if (bytes.length === 0) return undefined;
  const mediaType = mediaTypeOf(contentType);
  if (isJsonMediaType(mediaType)) {
    const text = bytes.toString("utf8");
    const excess = checkJsonDepth(text, DEFAULT_MAX_JSON_DEPTH);
    if (excess !== undefined) {
      throw new HttpError(
        "HTTP_RESPONSE_INVALID",
        `${where}: the response is refused: ${jsonDepthMessage(excess)}`,
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new HttpError(
        "HTTP_RESPONSE_INVALID",
        `${where}: the response says ${mediaType} but is not valid JSON (${error instanceof Error ? error.message : String(error)}): ${excerpt(text)}`,
      );
    }
  }
  if (mediaType === "" || TEXT_TYPES.test(mediaType)) return bytes.toString("utf8");
  return bytes;
}

/** At most 512 characters of a text, for error messages. */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= 512 ? flat : `${flat.slice(0, 512)}…`;
}
