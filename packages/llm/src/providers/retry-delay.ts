/** First backoff delay; doubled on each retry. */
export const RETRY_BASE_DELAY_MS = 500;
/** Longest backoff delay chosen by the client itself. */
export const RETRY_MAX_BACKOFF_MS = 8_000;
/** Longest wait a server may impose through `retry-after`. */
export const RETRY_AFTER_CAP_MS = 60_000;

/**
 * Reads how long the server asks to wait: `retry-after-ms` (milliseconds), else `retry-after`
 * as seconds or as an HTTP date. Returns `undefined` when neither is usable.
 */
export function parseRetryAfter(
  retryAfterMs: string | undefined,
  retryAfter: string | undefined,
  now = Date.now(),
): number | undefined {
  if (retryAfterMs !== undefined) {
    const milliseconds = Number(retryAfterMs);
    if (retryAfterMs.trim() !== "" && Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  }
  if (retryAfter === undefined || retryAfter.trim() === "") return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (0-based): the server's `retry-after` capped at
 * `RETRY_AFTER_CAP_MS`, else exponential backoff with up to 25% jitter below the bound.
 */
export function retryDelayMs(retry: number, serverDelayMs: number | undefined): number {
  if (serverDelayMs !== undefined) return Math.min(serverDelayMs, RETRY_AFTER_CAP_MS);
  const bound = Math.min(RETRY_MAX_BACKOFF_MS, RETRY_BASE_DELAY_MS * 2 ** retry);
  return Math.round(bound * (1 - Math.random() * 0.25));
}
