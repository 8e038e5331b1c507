// How a message body becomes bytes and a content type, and back: the one codec routekit's
// transports share (amqp: messages, http: requests, responses and replies).
import { BodyCodecError } from "../errors/errors.js";
import { checkJsonDepth, DEFAULT_MAX_JSON_DEPTH, jsonDepthMessage } from "../support/check-json-depth.js";
import { truncateForMessage } from "../support/truncate-for-message.js";

/** The content type of a string body: UTF-8 text. */
export const TEXT_CONTENT_TYPE = "text/plain; charset=utf-8";
/** The content type of a Buffer or byte array body. */
export const BYTES_CONTENT_TYPE = "application/octet-stream";
/** The content type of any other body, encoded as JSON (unless `jsonContentType` says another). */
export const JSON_CONTENT_TYPE = "application/json";

/** A body as it goes on the wire. */
export interface EncodedBody {
  /**
   * The bytes; a string stands for its UTF-8 bytes (a transport that writes text itself saves a
   * copy); undefined when there is no body to send.
   */
  readonly content: string | Uint8Array | undefined;
  /** The content type that says how to read `content`; undefined with no body. */
  readonly contentType: string | undefined;
}

/** How `encodeBody` labels what it encodes. */
export interface EncodeBodyOptions {
  /** The content type to send whatever the body: strings and bytes go as they are, other values as JSON. */
  readonly contentType?: string | undefined;
  /** The content type of a body encoded as JSON when `contentType` is not given (default `application/json`). */
  readonly jsonContentType?: string;
  /** `null` is no body, as `undefined` is (HTTP); by default it is the JSON text `null` (AMQP). */
  readonly nullIsEmpty?: boolean;
}

const NO_BODY: EncodedBody = { content: undefined, contentType: undefined };

/**
 * Encodes a body: a string as UTF-8 text (`text/plain; charset=utf-8`), a Buffer or byte array as
 * it is (`application/octet-stream`), `undefined` (and `null` with `nullIsEmpty`) as no body,
 * anything else as JSON (`application/json`, or `jsonContentType`). `contentType` overrides the
 * type sent. Throws a `BodyCodecError` (BODY_ENCODE_FAILED) for a value JSON cannot carry.
 */
export function encodeBody(body: unknown, options: EncodeBodyOptions = {}): EncodedBody {
  const contentType = options.contentType;
  if (typeof body === "string") return { content: body, contentType: contentType ?? TEXT_CONTENT_TYPE };
  if (body instanceof Uint8Array) return { content: body, contentType: contentType ?? BYTES_CONTENT_TYPE };
  if (contentType === undefined && (body === undefined || (body === null && options.nullIsEmpty === true))) {
    return NO_BODY;
  }
  return { content: toJson(body), contentType: contentType ?? options.jsonContentType ?? JSON_CONTENT_TYPE };
}

function toJson(body: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new BodyCodecError(
      "json-failed",
      `Cannot encode the message body as JSON: ${String(error)}`,
      truncateForMessage(detail, 512),
      { cause: error },
    );
  }
  if (text === undefined) {
    throw new BodyCodecError(
      "no-json-form",
      `Cannot encode a message body of type ${typeof body}: expected an object, array, string, number, boolean, null or Buffer`,
      `a ${typeof body} has no JSON form`,
    );
  }
  return text;
}

/** How `decodeBody` reads what is not JSON; every field has the default of a message broker's body. */
export interface DecodeBodyOptions {
  /** Deepest JSON nesting accepted, checked before parsing (default 128). */
  readonly maxJsonDepth?: number;
  /**
   * Which media types are text: `"text/*"` (default) only those, or `"textual"`: `text/*`, XML
   * (`application/xml`, `application/*+xml`), forms (`application/x-www-form-urlencoded`),
   * scripts (`application/javascript`, `application/ecmascript`) and a body with no content type.
   */
  readonly textTypes?: "text/*" | "textual";
  /** What a body of any other type becomes: `"bytes"` (default) or `"text"`. `application/octet-stream` is always bytes. */
  readonly otherTypes?: "bytes" | "text";
  /**
   * `"declared"` (default) reads text in the charset its content type names (utf-8, us-ascii,
   * iso-8859-1, utf-16le; another is refused); `"utf-8"` reads every text as UTF-8.
   */
  readonly charset?: "declared" | "utf-8";
  /** An empty body is `undefined` whatever its type (HTTP); by default only one without a content type is. */
  readonly emptyIsUndefined?: boolean;
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;
const TEXTUAL_MEDIA_TYPE =
  /^(?:text\/.*|application\/(?:[\w.+-]+\+)?xml|application\/(?:x-www-form-urlencoded|javascript|ecmascript))$/;

/**
 * Decodes received bytes by their content type: JSON types (`application/json`,
 * `application/*+json`) are parsed after a scan refuses nesting deeper than `maxJsonDepth`; text
 * types become strings; `application/octet-stream` stays bytes; other types as `options` say. An
 * empty body without a content type is `undefined`. Throws a `BodyCodecError`
 * (BODY_DECODE_FAILED) for invalid or too deep JSON and for a charset it does not read.
 */
export function decodeBody(
  content: Buffer,
  contentType: string | undefined,
  options: DecodeBodyOptions = {},
): unknown {
  if (
    content.length === 0 &&
    (options.emptyIsUndefined === true || contentType === undefined || contentType === "")
  ) {
    return undefined;
  }
  // The type routekit sends itself needs no parsing.
  const mediaType = contentType === JSON_CONTENT_TYPE ? contentType : mediaTypeOf(contentType);
  if (isJsonMediaType(mediaType)) return decodeJson(content, contentType!, options.maxJsonDepth);
  if (mediaType === BYTES_CONTENT_TYPE) return content;
  const text =
    options.textTypes === "textual"
      ? mediaType === "" || TEXTUAL_MEDIA_TYPE.test(mediaType)
      : mediaType.startsWith("text/");
  if (!text && options.otherTypes !== "text") return content;
  return content.toString(options.charset === "utf-8" ? "utf8" : encodingOf(contentType ?? ""));
}

/** The last content type seen and its media type: a transport's messages mostly carry the same one. */
let lastContentType = "";
let lastMediaType = "";

/** The media type of a content type, lower-cased, without parameters ("" for none). */
export function mediaTypeOf(contentType: string | undefined): string {
  if (contentType === undefined) return "";
  if (contentType === lastContentType) return lastMediaType;
  const mediaType = contentType.split(";", 1)[0]!.trim().toLowerCase();
  // Only short values are kept: a long content type chosen by a sender is not pinned in memory.
  if (contentType.length <= 256) {
    lastContentType = contentType;
    lastMediaType = mediaType;
  }
  return mediaType;
}

/** True for `application/json` and `application/<something>+json` (a media type as `mediaTypeOf` gives it). */
export function isJsonMediaType(mediaType: string): boolean {
  return JSON_MEDIA_TYPE.test(mediaType);
}

function decodeJson(content: Buffer, contentType: string, maxJsonDepth = DEFAULT_MAX_JSON_DEPTH): unknown {
  const text = content.toString("utf8");
  const excess = checkJsonDepth(text, maxJsonDepth);
  if (excess !== undefined) {
    const detail = jsonDepthMessage(excess);
    throw new BodyCodecError(
      "json-too-deep",
      `The message has content type '${truncateForMessage(contentType)}' but its body is refused (${content.length} bytes): ${detail}`,
      detail,
      { contentType: truncateForMessage(contentType) },
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new BodyCodecError(
      "json-invalid",
      `The message has content type '${truncateForMessage(contentType)}' but its body is not valid JSON (${content.length} bytes): ${String(error)}`,
      detail,
      { cause: error, contentType: truncateForMessage(contentType) },
    );
  }
}

const ENCODINGS: ReadonlyMap<string, BufferEncoding> = new Map([
  ["utf-8", "utf8"],
  ["utf8", "utf8"],
  ["us-ascii", "ascii"],
  ["ascii", "ascii"],
  ["iso-8859-1", "latin1"],
  ["latin1", "latin1"],
  ["utf-16le", "utf16le"],
]);

function encodingOf(contentType: string): BufferEncoding {
  const parameter = contentType
    .split(";")
    .slice(1)
    .map((part) => part.trim().toLowerCase())
    .find((part) => part.startsWith("charset="));
  if (parameter === undefined) return "utf8";
  const charset = parameter.slice(8).replace(/"/g, "");
  const encoding = ENCODINGS.get(charset);
  if (encoding !== undefined) return encoding;
  throw new BodyCodecError(
    "charset-unknown",
    `The message has content type '${truncateForMessage(contentType)}' with charset '${truncateForMessage(charset, 40)}': expected utf-8, us-ascii, iso-8859-1 or utf-16le`,
    `charset '${truncateForMessage(charset, 40)}'`,
    { contentType: truncateForMessage(contentType) },
  );
}
