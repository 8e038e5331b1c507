import { setTimeout as sleep } from "node:timers/promises";
import { type Dispatcher, request } from "undici";
import { LlmError, ModelRequestError } from "../errors.js";
import { readErrorText, readReplyText } from "./read-reply.js";
import { redactSecrets } from "./redact-secrets.js";
import { parseRetryAfter, retryDelayMs } from "./retry-delay.js";

/** Longest part of a response body quoted in an error. */
const EXCERPT_LENGTH = 500;

/** One JSON POST to a model provider, retried on 429, 5xx and transport failures. */
export interface JsonPostOptions {
  /** The provider id named in errors ("openai", "anthropic"). */
  provider: string;
  url: string;
  headers: Record<string, string>;
  /** The request body, already serialised. */
  body: string;
  dispatcher?: Dispatcher;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The deadline of each attempt. */
  timeoutMs: number;
  /** The caller's signal: cancels the attempt in flight and the waits between attempts. */
  signal?: AbortSignal;
  /** Values removed from every error message (API key, secret header values). */
  secrets: readonly string[];
  /** Largest reply body read, in bytes; see `readReplyText`. */
  maxResponseBytes: number;
  /** The factory whose option `maxResponseBytes` is, for messages ("openAiChat"). */
  factory: string;
}

/** Why one attempt failed, and whether another may follow. */
export interface AttemptFailure {
  status?: number;
  reason: string;
  retryable: boolean;
  serverDelayMs?: number;
  cause?: unknown;
}

/** One attempt: its value, or why it failed. */
export type AttemptOutcome<TValue> = { value: TValue } | AttemptFailure;

/**
 * Posts JSON and resolves with the parsed JSON reply. Retries with bounded exponential backoff
 * honouring `retry-after`; each attempt has its own deadline. A caller abort rejects with the
 * signal's reason; every other failure is a `ModelRequestError` with the key redacted.
 */
export async function postJsonWithRetry(options: JsonPostOptions): Promise<unknown> {
  // The first attempt directly; `withRetries` only once it failed.
  const outcome = await attemptPost(options);
  if (!("reason" in outcome)) return parseReply(options, outcome.value);
  return parseReply(options, await withRetries(options, attemptPost, outcome));
}

/**
 * Runs `attempt` until it succeeds, fails for good or the retries are spent, waiting between;
 * `firstFailure` is how a first attempt the caller already made failed.
 */
export async function withRetries<TValue>(
  options: JsonPostOptions,
  attempt: (options: JsonPostOptions) => Promise<AttemptOutcome<TValue>>,
  firstFailure?: AttemptFailure,
): Promise<TValue> {
  const attempts = options.maxRetries + 1;
  for (let count = 1; ; count++) {
    const outcome = count === 1 && firstFailure !== undefined ? firstFailure : await attempt(options);
    if (!("reason" in outcome)) return outcome.value;
    if (!outcome.retryable || count >= attempts) throw failure(options, outcome, count);
    await sleep(retryDelayMs(count - 1, outcome.serverDelayMs), undefined, {
      signal: options.signal,
    }).catch((error: unknown) => {
      throw options.signal?.aborted ? options.signal.reason : error;
    });
  }
}

async function attemptPost(options: JsonPostOptions): Promise<AttemptOutcome<string>> {
  try {
    const response = await request(options.url, postRequestOptions(options));
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { value: await readReplyText(response.body, options) };
    return statusFailure(response, await readErrorText(response.body, options), options);
  } catch (error) {
    if (error instanceof LlmError) throw error;
    return transportFailure(error, options);
  }
}

/**
 * The undici options of one attempt. `timeoutMs` bounds the wait for the head and each silence
 * while the body arrives, enforced by undici's own timers: an attempt allocates no timer,
 * controller or listener of ours, and the caller's signal is handed over as it is.
 */
export function postRequestOptions(options: JsonPostOptions) {
  return {
    method: "POST" as const,
    headers: options.headers,
    body: options.body,
    dispatcher: options.dispatcher,
    signal: options.signal,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  };
}

/** True for undici's own head or body timeout. */
export function isTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
}

/** The failure of an answer that is not 2xx: 429 and 5xx are retried unless `x-should-retry` says otherwise. */
export function statusFailure(
  response: Dispatcher.ResponseData,
  text: string,
  options: JsonPostOptions,
): AttemptFailure {
  const status = response.statusCode;
  const shouldRetry = headerValue(response.headers, "x-should-retry");
  return {
    status,
    reason: `HTTP ${status}: ${excerpt(text, options.secrets)}`,
    retryable: shouldRetry === undefined ? status === 429 || status >= 500 : shouldRetry === "true",
    serverDelayMs: parseRetryAfter(
      headerValue(response.headers, "retry-after-ms"),
      headerValue(response.headers, "retry-after"),
    ),
  };
}

/** The failure of an attempt that got no answer; a caller abort rejects with the caller's reason. */
export function transportFailure(error: unknown, options: JsonPostOptions): AttemptFailure {
  if (options.signal?.aborted) throw options.signal.reason;
  if (isTimeout(error)) {
    return { reason: `no reply within ${options.timeoutMs} ms (timeoutMs)`, retryable: true, cause: error };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { reason: `transport error: ${message}`, retryable: true, cause: error };
}

function parseReply(options: JsonPostOptions, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LlmError(
      "MODEL_RESPONSE_INVALID",
      `${options.provider} replied to POST ${options.url} with a body that is not JSON: ${excerpt(text, options.secrets)}`,
      { cause: error },
    );
  }
}

export function failure(
  options: JsonPostOptions,
  outcome: AttemptFailure,
  attempts: number,
): ModelRequestError {
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  const message = redactSecrets(
    `${options.provider} request POST ${options.url} failed after ${tries}: ${outcome.reason}`,
    options.secrets,
  );
  return new ModelRequestError(message, {
    provider: options.provider,
    status: outcome.status,
    retryAfterMs: outcome.serverDelayMs,
    cause: outcome.cause,
  });
}

export function excerpt(text: string, secrets: readonly string[]): string {
  const clean = redactSecrets(text, secrets).replace(/\s+/g, " ").trim();
  if (clean === "") return "(empty body)";
  return clean.length > EXCERPT_LENGTH ? `${clean.slice(0, EXCERPT_LENGTH)}…` : clean;
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
