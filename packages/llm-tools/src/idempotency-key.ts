import { truncateForMessage } from "@routekit/core/internal";

/** The longest effect key sent as `Idempotency-Key`; a longer one is refused before anything is sent. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 1024;

/** Visible ASCII only: a header value with a control character or a line break is refused. */
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * The `Idempotency-Key` a tool call sends: a durable run's effect key (`<run id>:<turn>:<call id>`),
 * or undefined when the call does not run durably. Answers an error text when the key cannot travel
 * as a header value (too long, a control character): the key is the receiver's only way to tell a
 * retry from a new effect, so a call does not go out without it.
 */
export function idempotencyKeyOf(
  effectKey: unknown,
  toolName: string,
): string | { error: string } | undefined {
  if (effectKey === undefined || effectKey === null || effectKey === "") return undefined;
  if (typeof effectKey !== "string") {
    return { error: `${toolName}: the call's effect key must be a string (found ${typeof effectKey})` };
  }
  if (effectKey.length > MAX_IDEMPOTENCY_KEY_LENGTH || !HEADER_VALUE.test(effectKey)) {
    const found =
      effectKey.length > MAX_IDEMPOTENCY_KEY_LENGTH
        ? `${effectKey.length} characters`
        : "a control, non-ASCII or edge space character";
    return {
      error:
        `${toolName}: the call's effect key cannot be sent as Idempotency-Key: expected at most ` +
        `${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters, found ${found} ` +
        `(${JSON.stringify(truncateForMessage(effectKey, 60))}); the request was not sent`,
    };
  }
  return effectKey;
}
