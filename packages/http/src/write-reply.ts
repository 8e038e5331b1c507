import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Exchange } from "@routekit/core";
import { BodyCodecError } from "@routekit/core/internal";
import { type EncodedBody, encodeHttpBody } from "./client-body.js";
import { HttpError } from "./http-error.js";
import { HTTP_HEADERS } from "./http-headers.js";

/** A reply ready to write: status, headers and the encoded body. */
export interface ReplyParts {
  status: number;
  headers: OutgoingHttpHeaders;
  /**
   * The body: text goes out as UTF-8 without an intermediate Buffer, so Node writes the head
   * and a small body in one write.
   */
  body: Buffer | string | undefined;
}

/** Writes a reply; `close` asks the client to close the connection (used while stopping). */
export function writeReply(response: ServerResponse, reply: ReplyParts, close: boolean): void {
  if (response.headersSent || response.writableEnded || response.destroyed) return;
  // The reply's headers are built for this one reply: completed in place, not copied.
  const headers = reply.headers;
  if (close) headers.connection = "close";
  const body = reply.body;
  if (body !== undefined)
    headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body, "utf8") : body.length;
  response.writeHead(reply.status, headers);
  response.end(reply.body);
}

/** A JSON reply such as `{ "error": "..." }`. */
export function jsonReply(status: number, value: unknown, headers: OutgoingHttpHeaders = {}): ReplyParts {
  return {
    status,
    headers: Object.assign({}, headers, { "content-type": "application/json; charset=utf-8" }),
    body: JSON.stringify(value),
  };
}

/**
 * Maps the exchange after the route to a reply: status from `http.status` (default 200, or 204
 * when the body is empty), headers from `http.response.header.*`, and the body by its type —
 * string as text/plain, Buffer or Uint8Array as application/octet-stream, undefined or null as
 * no body, anything else as JSON. A header set by the route wins over the default content type.
 * Fails with HTTP_REPLY_INVALID when the status, a header or the body cannot be sent.
 */
export function replyFromExchange(exchange: Exchange): ReplyParts {
  const headers = responseHeaders(exchange);
  const body = exchange.body;
  const statusHeader = exchange.headers[HTTP_HEADERS.status];
  const status = statusHeader === undefined ? (body == null ? 204 : 200) : statusOf(statusHeader);
  let encoded: EncodedBody;
  try {
    encoded = encodeHttpBody(body);
  } catch (error) {
    if (!(error instanceof BodyCodecError)) throw error;
    throw new HttpError(
      "HTTP_REPLY_INVALID",
      `The reply body could not be serialised as JSON: ${error.detail}`,
      {
        cause: error.cause ?? error,
      },
    );
  }
  if (encoded.body === undefined) return { status, headers, body: undefined };
  if (headers["content-type"] === undefined) headers["content-type"] = encoded.contentType;
  return { status, headers, body: encoded.body };
}

export function statusOf(value: unknown): number {
  const status = typeof value === "string" && /^\d{3}$/.test(value.trim()) ? Number(value) : value;
  if (typeof status !== "number" || !Number.isInteger(status) || status < 100 || status > 599) {
    throw new HttpError(
      "HTTP_REPLY_INVALID",
      `Header '${HTTP_HEADERS.status}' must be an HTTP status 100-599 (found ${JSON.stringify(value)})`,
    );
  }
  return status;
}

const FORBIDDEN = new Set(["content-length", "transfer-encoding", "connection"]);

export function responseHeaders(exchange: Exchange): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const prefix = HTTP_HEADERS.responseHeaderPrefix;
  const source = exchange.headers;
  for (const key in source) {
    if (!key.startsWith(prefix)) continue;
    const value = source[key];
    if (value === undefined) continue;
    const name = key.slice(prefix.length).toLowerCase();
    if (FORBIDDEN.has(name)) continue;
    const valid =
      typeof value === "string" ||
      typeof value === "number" ||
      (Array.isArray(value) && value.every((item) => typeof item === "string"));
    if (!valid || name === "" || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
      throw new HttpError(
        "HTTP_REPLY_INVALID",
        `Header '${key}' must be a valid header name with a string, number or string[] value (found ${describe(value)})`,
      );
    }
    if (typeof value === "string" && /[\r\n\0]/.test(value)) {
      throw new HttpError("HTTP_REPLY_INVALID", `Header '${key}' contains a line break or NUL character`);
    }
    headers[name] = value as string | number | string[];
  }
  return headers;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array with a non-string item";
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}
