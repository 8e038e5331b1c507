import { request } from "undici";
import { LlmError, ModelRequestError } from "../errors.js";
import {
  type AttemptOutcome,
  isTimeout,
  type JsonPostOptions,
  postRequestOptions,
  statusFailure,
  transportFailure,
  withRetries,
} from "./http-retry.js";
import { countBytes, readErrorText } from "./read-reply.js";
import { redactSecrets } from "./redact-secrets.js";

/** Reads a started stream's body. */
export type StreamReader<TValue> = (body: AsyncIterable<Uint8Array>) => Promise<TValue>;

/**
 * POSTs JSON and reads a streamed (server-sent events) answer with `read`. Until a 2xx head
 * arrives the call is retried as `postJsonWithRetry` is; once the stream has started it is never
 * retried (the deltas already went out), and a stream that breaks — transport error, abrupt
 * close, `timeoutMs` without data (undici's body timeout) — fails with a `ModelRequestError` saying it broke mid-way. A
 * caller abort rejects with the signal's reason; an error `read` raises (an error event, a
 * malformed event) rejects as it is.
 */
export function postStreamWithRetry<TValue>(
  options: JsonPostOptions,
  read: StreamReader<TValue>,
): Promise<TValue> {
  return withRetries(options, (attempt) => attemptStream(attempt, read));
}

async function attemptStream<TValue>(
  options: JsonPostOptions,
  read: StreamReader<TValue>,
): Promise<AttemptOutcome<TValue>> {
  let started = false;
  try {
    const response = await request(options.url, postRequestOptions(options));
    const status = response.statusCode;
    if (status < 200 || status >= 300)
      return statusFailure(response, await readErrorText(response.body, options), options);
    started = true;
    // Counted over the whole stream: past maxResponseBytes the body is destroyed and the read fails.
    return { value: await read(countBytes(response.body, options)) };
  } catch (error) {
    if (!started) return transportFailure(error, options);
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof LlmError) throw error;
    throw brokenStream(options, error);
  }
}

function brokenStream(options: JsonPostOptions, error: unknown): ModelRequestError {
  const reason = isTimeout(error)
    ? `no data for ${options.timeoutMs} ms (timeoutMs)`
    : `transport error: ${error instanceof Error ? error.message : String(error)}`;
  return new ModelRequestError(
    redactSecrets(
      `${options.provider} stream from POST ${options.url} broke mid-way (not retried: part of the answer was already delivered): ${reason}`,
      options.secrets,
    ),
    { provider: options.provider, cause: error },
  );
}
