import { truncateForMessage } from "@routekit/core/internal";
/**
 * How much of a failed tool call the model reads. The model is an outside party: an error's text
 * can name internal hosts, addresses, paths and class names it should not learn. The full error
 * always goes to events (`tool-call-completed`'s `error`) and to the log.
 *
 * - `"safe"` (the default): an error that declares itself fit for the model (`expose: true`, as
 *   tool input errors do) is shown as `<Name>: <message>`; any other error shows only its message
 *   with URLs, IP addresses, host:port pairs and file paths replaced by placeholders, and no class
 *   name.
 * - `"message"`: `<Name>: <message>` of every error, unchanged (trusted tools and models only).
 * - a function `(error, toolName) => string`: your own wording.
 */
export type ToolErrorPolicy = "safe" | "message" | ((error: Error, toolName: string) => string);

/** The longest error text the model reads. */
const MAX_ERROR_TEXT = 1000;

/** What the model reads of `error` under `policy`. */
export function describeToolError(error: Error, toolName: string, policy: ToolErrorPolicy): string {
  if (typeof policy === "function") return String(policy(error, toolName));
  // Cut before any scan: a message may be as long as the input that caused it.
  const message = error.message.slice(0, MAX_ERROR_TEXT * 4);
  const full = message === "" ? error.name : `${error.name}: ${message}`;
  if (policy === "message" || isExposed(error)) return truncate(full);
  const cleaned = sanitizeErrorText(message);
  return truncate(cleaned === "" ? `tool '${truncateForMessage(toolName)}' failed` : cleaned);
}

/** True when the error says its message is meant for whoever sent the input (`expose: true`). */
export function isExposed(error: Error): boolean {
  return (error as { expose?: unknown }).expose === true;
}

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`)\]]+/gi;
// An IPv6 literal holds a colon; without one, `[0]` or `[a]` is an index and stays.
const BRACKETED_IPV6 = /\[[0-9a-f.]*:[0-9a-f:.]*\](?::\d+)?/gi;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g;
const IPV6 = /\b(?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{0,4}\b/gi;
const HOST_PORT = /\b(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+):\d{2,5}\b/gi;
const PATH = /(?:^|(?<=[\s'"(]))(?:\/[\w.@-]+){2,}\/?/g;

/** `text` with URLs, IP addresses, host:port pairs and absolute paths replaced by placeholders. */
export function sanitizeErrorText(text: string): string {
  return text
    .replace(URL_PATTERN, "<url>")
    .replace(BRACKETED_IPV6, "<address>")
    .replace(IPV4, "<address>")
    .replace(IPV6, "<address>")
    .replace(HOST_PORT, "<address>")
    .replace(PATH, "<path>");
}

function truncate(text: string): string {
  return text.length <= MAX_ERROR_TEXT ? text : `${text.slice(0, MAX_ERROR_TEXT)}…`;
}

/** Checks a `toolErrors` option. */
export function isToolErrorPolicy(value: unknown): value is ToolErrorPolicy {
  return value === "safe" || value === "message" || typeof value === "function";
}
