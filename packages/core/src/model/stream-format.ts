/**
 * How a streamed body wants to go on the wire, declared by the body itself: a protocol that an
 * `http:` reply must carry with its own content type and headers (the AI SDK's UI message stream
 * is server-sent events with `x-vercel-ai-ui-message-stream: v1`). The body's items are written
 * as the content type says (strings as event data for `text/event-stream`).
 */
export interface StreamFormat {
  readonly contentType: string;
  /** Further response headers, lower-case names. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The property of a streamed body holding its `StreamFormat` (a registered symbol: every copy of core agrees). */
export const STREAM_FORMAT: unique symbol = Symbol.for("routekit.stream-format") as never;

/** The format a streamed body declares, if any. */
export function streamFormatOf(body: unknown): StreamFormat | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const format = (body as { [STREAM_FORMAT]?: unknown })[STREAM_FORMAT];
  if (typeof format !== "object" || format === null) return undefined;
  return typeof (format as StreamFormat).contentType === "string" ? (format as StreamFormat) : undefined;
}
