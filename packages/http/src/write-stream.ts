import type { ServerResponse } from "node:http";
import type { Exchange } from "@routekit/core";
import { streamFormatOf } from "@routekit/core/internal";
import { HTTP_HEADERS } from "./http-headers.js";
import { encodeStreamItem, type StreamMode, streamContentType, streamMode } from "./stream-body.js";
import { responseHeaders, statusOf } from "./write-reply.js";

/** How often an idle event stream sends a comment, so proxies keep the connection open. */
const KEEP_ALIVE_MS = 15_000;

/** What `writeStreamReply` needs besides the response. */
export interface StreamReplyOptions {
  /** Ask the client to close the connection afterwards (the server is stopping). */
  close: boolean;
  /** Logs a failure and says what the client may read of it. */
  describeError(error: unknown): { error: string; exchangeId: string };
  /** The reply for a stream that fails before its first item. */
  failBeforeStart(error: unknown): void;
}

/**
 * Streams an `AsyncIterable` body: the head goes out with the first item, then every item is
 * written (and flushed) as it comes, waiting for the socket to drain when it is full. A client
 * that goes away stops the iteration (`return()`: an `LlmStream` cancels its run). An error in
 * the middle ends an event stream with a `{"type":"error"}` event and cuts a text stream short
 * (the client sees the chunked body end early). Never throws.
 */
export async function writeStreamReply(
  response: ServerResponse,
  exchange: Exchange,
  body: AsyncIterable<unknown>,
  options: StreamReplyOptions,
): Promise<void> {
  let iterator: AsyncIterator<unknown>;
  let first: IteratorResult<unknown>;
  try {
    const headers = responseHeaders(exchange);
    const statusHeader = exchange.headers[HTTP_HEADERS.status];
    const status = statusHeader === undefined ? 200 : statusOf(statusHeader);
    iterator = body[Symbol.asyncIterator]();
    let gone = false;
    const onClose = (): void => {
      if (response.writableFinished) return;
      gone = true;
      iterator.return?.().catch(() => {});
    };
    response.once("close", onClose);
    first = await iterator.next();
    if (gone) return;
    // A body that declares its protocol (the AI SDK's UI message stream) sets its own type and headers.
    const format = streamFormatOf(body);
    if (format !== undefined) {
      headers["content-type"] = format.contentType;
      for (const [name, value] of Object.entries(format.headers ?? {})) headers[name] = value;
    }
    const mode = streamMode(first.value, headers["content-type"]);
    headers["content-type"] ??= streamContentType(mode);
    if (mode === "events") {
      headers["cache-control"] ??= "no-cache";
      headers["x-accel-buffering"] ??= "no";
    }
    if (options.close) headers.connection = "close";
    response.writeHead(status, headers);
    await pump(response, iterator, first, mode, () => gone, options);
  } catch (error) {
    options.failBeforeStart(error);
  }
}

async function pump(
  response: ServerResponse,
  iterator: AsyncIterator<unknown>,
  first: IteratorResult<unknown>,
  mode: StreamMode,
  gone: () => boolean,
  options: StreamReplyOptions,
): Promise<void> {
  const keepAlive =
    mode === "events" ? setInterval(() => response.write(": keep-alive\n\n"), KEEP_ALIVE_MS) : undefined;
  keepAlive?.unref();
  // Items that come in one tick (a burst the model sent in one packet) leave in one write.
  let pending = "";
  let scheduled = false;
  let full: Promise<void> | undefined;
  const flush = (): void => {
    scheduled = false;
    if (pending === "" || response.destroyed) return;
    const text = pending;
    pending = "";
    if (!response.write(text)) full ??= drained(response).then(() => (full = undefined));
  };
  try {
    let item = first;
    while (item.done !== true) {
      const encoded = encodeStreamItem(item.value, mode);
      if (typeof encoded === "string") {
        pending += encoded;
        if (!scheduled) {
          scheduled = true;
          process.nextTick(flush);
        }
      } else {
        flush();
        if (!response.write(encoded)) await drained(response);
      }
      if (full !== undefined) await full;
      if (gone()) return;
      item = await iterator.next();
      if (gone()) return;
    }
    flush();
    response.end();
  } catch (error) {
    const detail = options.describeError(error);
    if (gone()) return;
    if (mode === "events") {
      flush();
      response.end(encodeStreamItem({ type: "error", ...detail }, mode));
    } else {
      response.destroy();
    }
  } finally {
    if (keepAlive !== undefined) clearInterval(keepAlive);
  }
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off("drain", done);
      response.off("close", done);
      resolve();
    };
    response.on("drain", done);
    response.on("close", done);
  });
}
