import { createParser, type EventSourceMessage } from "eventsource-parser";
import { LlmError } from "../errors.js";

/** The longest event (or unterminated line) a model stream may send: 8 MiB. */
const MAX_EVENT_BYTES = 8 * 1024 * 1024;

/**
 * Reads a `text/event-stream` body and hands each event to `onEvent`, in order. Bytes are decoded
 * as a UTF-8 stream (a character split across chunks is joined), lines are parsed by
 * eventsource-parser and comments (keep-alives) are skipped. An event larger than 8 MiB fails with `MODEL_RESPONSE_INVALID`.
 */
export async function readServerSentEvents(
  body: AsyncIterable<Uint8Array>,
  where: string,
  onEvent: (event: EventSourceMessage) => void,
): Promise<void> {
  let parseError: Error | undefined;
  const parser = createParser({
    maxBufferSize: MAX_EVENT_BYTES,
    onEvent,
    onError(error) {
      parseError ??= new LlmError(
        "MODEL_RESPONSE_INVALID",
        `${where}: the event stream is malformed (${error.type}): ${error.message}`,
      );
    },
  });
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (parseError !== undefined) throw parseError;
  }
  const rest = decoder.decode();
  // A final event without its blank line is complete once the body ends.
  parser.feed(rest.endsWith("\n") ? `${rest}\n` : `${rest}\n\n`);
  if (parseError !== undefined) throw parseError;
}
