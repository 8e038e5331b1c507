import type { Dispatcher } from "undici";
import { LlmError } from "../errors.js";
import type { JsonPostOptions } from "./http-retry.js";

type ReplyBody = Dispatcher.ResponseData["body"];

/** Bytes of a non-2xx reply read for its error message: the message quotes only its start. */
const ERROR_BODY_BYTES = 64 * 1024;

/**
 * Reads a reply body as UTF-8 text, counting bytes as they arrive: past `maxResponseBytes` the
 * body is destroyed (its connection closed, nothing more is read) and the read fails with
 * `MODEL_RESPONSE_INVALID` naming the provider, the limit and the option.
 */
export function readReplyText(body: ReplyBody, options: JsonPostOptions): Promise<string> {
  // Read with 'data' events, not an async iterator: a reply is read twice per tool turn, and
  // the iterator's promise per chunk cost more than the rest of the read.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > options.maxResponseBytes) {
        body.off("data", onData);
        body.destroy();
        reject(tooLarge(options));
        return;
      }
      chunks.push(chunk);
    };
    body.on("data", onData);
    body.once("error", reject);
    body.once("end", () => {
      const text =
        chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks, size).toString("utf8");
      resolve(text);
    });
  });
}

/** The first 64 KiB of a non-2xx reply, the rest discarded with its connection. */
export async function readErrorText(body: ReplyBody, options: JsonPostOptions): Promise<string> {
  const limit = Math.min(ERROR_BODY_BYTES, options.maxResponseBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break; // leaving the loop destroys the body
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

/**
 * The chunks of `body`, failing once more than `maxResponseBytes` arrived in all (a streamed
 * reply is counted over the whole stream). Leaving the loop, by the failure or otherwise,
 * destroys the body and so releases its socket.
 */
export async function* countBytes(
  body: AsyncIterable<Uint8Array>,
  options: Pick<JsonPostOptions, "maxResponseBytes" | "provider" | "url" | "factory">,
): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > options.maxResponseBytes) throw tooLarge(options);
    yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  }
}

function tooLarge(
  options: Pick<JsonPostOptions, "maxResponseBytes" | "provider" | "url" | "factory">,
): LlmError {
  return new LlmError(
    "MODEL_RESPONSE_INVALID",
    `${options.provider} reply from POST ${options.url} is larger than maxResponseBytes ` +
      `(${options.maxResponseBytes} bytes); the connection was closed. Raise the option ` +
      `maxResponseBytes of ${options.factory}() if replies this large are expected`,
  );
}
