/** True for a body the server streams: any `AsyncIterable` (an `LlmStream`, a generator, a Readable). */
export function isStreamBody(body: unknown): body is AsyncIterable<unknown> {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

/** How a streamed body goes out: server-sent events, or chunked text or bytes. */
export type StreamMode = "events" | "text" | "bytes";

/**
 * The mode for a stream whose first item is `first`: a content type set by the route decides
 * (`text/event-stream` gives events, any other type raw chunks); otherwise strings go out as
 * chunked text, bytes as chunked octets and anything else as server-sent events of JSON.
 */
export function streamMode(first: unknown, contentType: unknown): StreamMode {
  if (typeof contentType === "string") {
    if (contentType.toLowerCase().startsWith("text/event-stream")) return "events";
    return first instanceof Uint8Array ? "bytes" : "text";
  }
  if (typeof first === "string") return "text";
  if (first instanceof Uint8Array) return "bytes";
  return "events";
}

/** The default content type of a mode. */
export function streamContentType(mode: StreamMode): string {
  switch (mode) {
    case "events":
      return "text/event-stream; charset=utf-8";
    case "text":
      return "text/plain; charset=utf-8";
    case "bytes":
      return "application/octet-stream";
  }
}

/**
 * One item as it goes on the wire. Events: a string is the event's data (one `data:` line per
 * line), anything else its JSON; each event ends with a blank line. Text and bytes: the item
 * itself (a non-string, non-byte item as a JSON line).
 */
export function encodeStreamItem(item: unknown, mode: StreamMode): string | Uint8Array {
  if (mode !== "events") {
    if (typeof item === "string" || item instanceof Uint8Array) return item;
    return `${JSON.stringify(item) ?? "null"}\n`;
  }
  if (item instanceof Uint8Array) item = Buffer.from(item).toString("utf8");
  // JSON text never holds a raw line break; a string may, and each line becomes a data line.
  if (typeof item !== "string") return `data: ${JSON.stringify(item) ?? "null"}\n\n`;
  const data = item.includes("\n") || item.includes("\r") ? item.replace(/\r\n|\r|\n/g, "\ndata: ") : item;
  return `data: ${data}\n\n`;
}
