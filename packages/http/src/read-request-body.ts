import type { IncomingMessage } from "node:http";
import { checkJsonDepth, jsonDepthMessage } from "@routekit/core/internal";

/** The outcome of reading a request body. */
export type RequestBodyResult =
  | { kind: "ok"; body: unknown }
  | { kind: "too-large"; limit: number }
  | { kind: "invalid-json"; message: string }
  | { kind: "too-deep"; message: string }
  | { kind: "aborted" };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** The last content-type seen and its media type: requests to one server mostly send the same one. */
let lastContentType = "";
let lastMediaType = "";

/** The media type of a content-type header, lower-cased, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
  if (contentType === undefined) return "";
  if (contentType === lastContentType) return lastMediaType;
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  // Only short values are kept: a long attacker-chosen header is not pinned in memory.
  if (contentType.length <= 256) {
    lastContentType = contentType;
    lastMediaType = mediaType;
  }
  return mediaType;
}

/** True for `application/json` and `application/<something>+json`. */
export function isJsonMediaType(mediaType: string): boolean {
  return JSON_TYPE.test(mediaType);
}

/**
 * Reads the body, stopping at `limit` bytes (a declared content-length above it is refused before
 * reading). JSON content types are parsed, after a scan refuses nesting deeper than `maxJsonDepth`;
 * `application/octet-stream` stays a Buffer; anything else is UTF-8 text. An empty body is `undefined`.
 */
export function readRequestBody(
  request: IncomingMessage,
  limit: number,
  maxJsonDepth: number,
): Promise<RequestBodyResult> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: "too-large", limit });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: RequestBodyResult): void => {
      if (settled) return;
      settled = true;
      request.off("data", onData);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        request.pause();
        finish({ kind: "too-large", limit });
        return;
      }
      chunks.push(chunk);
    };
    // A client that goes away mid-body ends in close without end. No error listener: an
    // IncomingMessage emits 'error' only to listeners it has, and close follows it anyway.
    const onClose = (): void => {
      if (!request.complete) finish({ kind: "aborted" });
    };
    request.on("data", onData);
    request.once("close", onClose);
    request.once("end", () => {
      request.off("close", onClose);
      finish(decode(Buffer.concat(chunks, size), request.headers["content-type"], maxJsonDepth));
    });
  });
}

function decode(bytes: Buffer, contentType: string | undefined, maxJsonDepth: number): RequestBodyResult {
  if (bytes.length === 0) return { kind: "ok", body: undefined };
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === "application/octet-stream") return { kind: "ok", body: bytes };
  const text = bytes.toString("utf8");
  if (!isJsonMediaType(mediaType)) return { kind: "ok", body: text };
  const excess = checkJsonDepth(text, maxJsonDepth);
  if (excess !== undefined) return { kind: "too-deep", message: jsonDepthMessage(excess) };
  try {
    return { kind: "ok", body: JSON.parse(text) as unknown };
  } catch (error) {
    return { kind: "invalid-json", message: error instanceof Error ? error.message : String(error) };
  }
}
