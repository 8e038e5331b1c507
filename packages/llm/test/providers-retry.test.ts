import { describe, expect, it } from "vitest";
import { collectSecrets, redactSecrets } from "../src/providers/redact-secrets.js";
import {
  parseRetryAfter,
  RETRY_AFTER_CAP_MS,
  RETRY_MAX_BACKOFF_MS,
  retryDelayMs,
} from "../src/providers/retry-delay.js";

describe("retry delays", () => {
  it("reads retry-after as seconds, as an HTTP date, and retry-after-ms first", () => {
    const now = Date.parse("2025-05-01T10:00:00Z");
    expect(parseRetryAfter(undefined, "3", now)).toBe(3000);
    expect(parseRetryAfter(undefined, "0.5", now)).toBe(500);
    expect(parseRetryAfter(undefined, "Thu, 01 May 2025 10:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter(undefined, "Thu, 01 May 2025 09:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("250", "3", now)).toBe(250);
    expect(parseRetryAfter(undefined, "soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, "-1", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, undefined, now)).toBeUndefined();
  });

  it("caps the server's wait and bounds its own exponential backoff", () => {
    expect(retryDelayMs(0, 3600_000)).toBe(RETRY_AFTER_CAP_MS);
    expect(retryDelayMs(4, 1200)).toBe(1200);
    for (let retry = 0; retry < 12; retry++) {
      const bound = Math.min(RETRY_MAX_BACKOFF_MS, 500 * 2 ** retry);
      const delay = retryDelayMs(retry, undefined);
      expect(delay).toBeLessThanOrEqual(bound);
      expect(delay).toBeGreaterThanOrEqual(bound * 0.75);
    }
  });
});

describe("secret redaction", () => {
  it("removes the key and secret-looking header values, leaving other headers", () => {
    const secrets = collectSecrets("sk-abc", { "x-portkey-api-key": "pk-999", "x-trace": "trace-1" });
    expect(secrets).toEqual(["sk-abc", "pk-999"]);
    expect(redactSecrets("Bearer sk-abc / pk-999 / trace-1 / sk-abc", secrets)).toBe(
      "Bearer [redacted] / [redacted] / trace-1 / [redacted]",
    );
    expect(redactSecrets("nothing here", [""])).toBe("nothing here");
  });
});
