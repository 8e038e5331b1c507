import type { IncomingMessage } from "node:http";
import { BodyCodecError, decodeBody } from "@routekit/core/internal";

/** The outcome of reading a request body. */
export type RequestBodyResult =
  | { kind: "ok"; body: unknown }
  | { kind: "too-large"; limit: number }
  | { kind: "invalid-json"; message: string }
  | { kind: "too-deep"; message: string }
  | { kind: "aborted" };

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

/** How a request body is read: JSON parsed, application/octet-stream as bytes, anything else as UTF-8 text. */
const REQUEST_DECODING = { otherTypes: "text", charset: "utf-8", emptyIsUndefined: true } as const;

function decode(bytes: Buffer, contentType: string | undefined, maxJsonDepth: number): RequestBodyResult {
  try {
    return { kind: "ok", body: decodeBody(bytes, contentType, { ...REQUEST_DECODING, maxJsonDepth }) };
  } catch (error) {
    if (!(error instanceof BodyCodecError)) throw error;
    return { kind: error.reason === "json-too-deep" ? "too-deep" : "invalid-json", message: error.detail };
  }
}
