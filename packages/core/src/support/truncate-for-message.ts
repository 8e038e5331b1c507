/** Characters of an input kept when an error message quotes it. */
export const MESSAGE_ECHO_CHARS = 120;

/**
 * `text` cut for an error message: at most `maxChars` characters (default 120), followed by
 * "… (N chars)" when it was longer, so a message never grows with what a caller sent. A cut
 * never splits a surrogate pair. Non-strings are turned into text first.
 */
export function truncateForMessage(text: unknown, maxChars: number = MESSAGE_ECHO_CHARS): string {
  const value = typeof text === "string" ? text : printable(text);
  if (value.length <= maxChars) return value;
  let end = maxChars;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${value.slice(0, end)}… (${value.length} chars)`;
}

function printable(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "(unprintable value)";
  }
}
