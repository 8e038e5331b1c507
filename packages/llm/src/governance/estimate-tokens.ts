import type { ChatMessage } from "../model-types.js";

/** Deepest nesting counted; anything deeper counts as nothing (a message is a few levels deep). */
const MAX_DEPTH = 16;

/**
 * The length of `value`'s JSON, counted without building the text: a string's characters and its
 * quotes (escapes not counted), a number's digits, the brackets, commas, keys and colons of
 * containers. Binary data counts as its base64 text. Read on every model call of a run for the
 * budget check and the quota, so it allocates nothing for text and arrays.
 */
export function jsonLength(value: unknown, depth = 0): number {
  switch (typeof value) {
    case "string":
      return value.length + 2;
    case "number":
      return Number.isFinite(value) ? String(value).length : 4;
    case "boolean":
      return value ? 4 : 5;
    case "object":
      return value === null ? 4 : containerLength(value, depth);
    default:
      return 0;
  }
}

function containerLength(value: object, depth: number): number {
  if (depth >= MAX_DEPTH) return 0;
  if (ArrayBuffer.isView(value)) return Math.ceil(value.byteLength / 3) * 4 + 2;
  if (Array.isArray(value)) {
    let length = 2 + Math.max(0, value.length - 1);
    for (const item of value) length += item === undefined ? 4 : jsonLength(item, depth + 1);
    return length;
  }
  let length = 2;
  let fields = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = (value as Record<string, unknown>)[key];
    if (field === undefined || typeof field === "function" || typeof field === "symbol") continue;
    length += key.length + 3 + jsonLength(field, depth + 1);
    fields++;
  }
  return length + Math.max(0, fields - 1);
}

/** A message's size in tokens, estimated as a quarter of its JSON's length. */
export function messageTokens(message: ChatMessage): number {
  return Math.ceil(jsonLength(message) / 4);
}

/** A conversation's size in tokens: the sum of its messages' estimates. */
export function conversationTokens(messages: readonly ChatMessage[]): number {
  let tokens = 0;
  for (const message of messages) tokens += messageTokens(message);
  return tokens;
}
