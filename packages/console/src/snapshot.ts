import { RoutekitError } from "@routekit/core";
import {
  createRedactor,
  headerSecrets,
  isSecretHeader,
  isSecretName,
  REDACTED,
  redactUri,
} from "@routekit/core/internal";

/** A message as the console shows it: the body as bounded text, each header as bounded text. */
export interface MessageSnapshot {
  /** The body rendered as text (JSON for objects), cut at the snapshot size. */
  readonly body: string;
  /** What the body is: "string", "object", "bytes", "stream", "undefined", ... */
  readonly bodyType: string;
  /** True when the body or a header value was cut. */
  readonly truncated: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

/** Marks the end of a value cut at the snapshot size. */
const CUT = "…";
const MAX_HEADERS = 64;
export const REDACTED_VALUE = REDACTED;

/** Raised inside `boundedJson` when a value is larger than the snapshot size; never leaves this file. */
class Budget extends RoutekitError<"SNAPSHOT_TOO_LARGE"> {
  constructor() {
    super("SNAPSHOT_TOO_LARGE", "the value is larger than the snapshot size", { retryable: false });
  }
}

/**
 * JSON text of `value`, stopping once it is longer than `limit` (huge bodies are never rendered
 * whole); with `secretFields`, fields named like a credential read `[redacted]`.
 */
function boundedJson(value: unknown, limit: number, secretFields: boolean): { text: string; cut: boolean } {
  let length = 0;
  try {
    const text = JSON.stringify(value, (key, item: unknown) => {
      if (secretFields && key !== "" && item != null && isSecretName(key)) return REDACTED;
      if (typeof item === "bigint") return `${item}n`;
      if (typeof item === "function") return "[function]";
      if (typeof item === "string") length += item.length;
      else length += 8;
      if (length > limit * 2) throw new Budget();
      return item;
    });
    if (text === undefined) return { text: String(value), cut: false };
    return text.length > limit ? { text: text.slice(0, limit) + CUT, cut: true } : { text, cut: false };
  } catch (error) {
    if (error instanceof Budget) return { text: "(larger than the snapshot size)", cut: true };
    return {
      text: `(not serialisable: ${error instanceof Error ? error.message : String(error)})`,
      cut: false,
    };
  }
}

function bounded(text: string, limit: number): { text: string; cut: boolean } {
  return text.length > limit ? { text: text.slice(0, limit) + CUT, cut: true } : { text, cut: false };
}

/** Redacts a rendered text; `margin` more characters are rendered than kept, so a cut never splits a secret. */
interface TextRedaction {
  readonly redact: (text: string) => string;
  readonly margin: number;
}

const NO_REDACTION: TextRedaction = { redact: (text) => text, margin: 0 };

/**
 * The body as bounded text, with its kind, redacted before it is cut; with `secretFields`, the
 * fields of an object named like a credential read `[redacted]` (a header's value).
 */
export function snapshotBody(
  body: unknown,
  limit: number,
  redaction: TextRedaction = NO_REDACTION,
  secretFields = false,
): { text: string; type: string; cut: boolean } {
  const rendered = renderBody(body, limit + redaction.margin, secretFields);
  const redacted = redaction.redact(rendered.text);
  // Bytes are shown as their first `limit` bytes, unmarked (`bodyType` gives their length).
  const final =
    body instanceof Uint8Array
      ? { text: redacted.slice(0, limit), cut: redacted.length > limit }
      : bounded(redacted, limit);
  return { text: final.text, type: rendered.type, cut: rendered.cut || final.cut };
}

function renderBody(
  body: unknown,
  limit: number,
  secretFields: boolean,
): { text: string; type: string; cut: boolean } {
  if (body === undefined || body === null) return { text: String(body), type: String(body), cut: false };
  if (typeof body === "string") return { ...bounded(body, limit), type: "string" };
  if (body instanceof Uint8Array) {
    const preview = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, limit));
    return {
      text: preview.toString("utf8"),
      type: `bytes (${body.byteLength})`,
      cut: body.byteLength > limit,
    };
  }
  if (typeof body === "object" && Symbol.asyncIterator in body) {
    return { text: "(a stream: not read by the console)", type: "stream", cut: false };
  }
  if (typeof body === "object")
    return { ...boundedJson(body, limit, secretFields), type: Array.isArray(body) ? "array" : "object" };
  return { text: String(body), type: typeof body, cut: false };
}

/**
 * A bounded copy of a message: body text and header values. Headers named like credentials under
 * any component's naming (`http.request.header.authorization`, `x-api-key`; see `isSecretHeader`)
 * or listed in `redacted` read `[redacted]`; so do secret-named fields of object-valued headers
 * (`http.reply.headers`), and the credentials those headers carry, in any encoding, and those of
 * URLs are redacted from the body and the other headers (a server echoing a key back).
 */
export function snapshotMessage(
  body: unknown,
  headers: Readonly<Record<string, unknown>>,
  limit: number,
  redacted: ReadonlySet<string>,
): MessageSnapshot {
  const redaction = redactionOf(headers, redacted);
  const rendered = snapshotBody(body, limit, redaction);
  let truncated = rendered.cut;
  const copy = Object.create(null) as Record<string, string>;
  let kept = 0;
  for (const name in headers) {
    if (kept === MAX_HEADERS) {
      truncated = true;
      break;
    }
    kept++;
    if (isSecretHeader(name, redacted)) {
      copy[name] = REDACTED_VALUE;
      continue;
    }
    const text = snapshotBody(headers[name], limit, redaction, true);
    if (text.cut) truncated = true;
    copy[name] = text.text;
  }
  return { body: rendered.text, bodyType: rendered.type, truncated, headers: copy };
}

/** Every escaped form of a secret is at most this many times longer than the secret. */
const ESCAPED_GROWTH = 6;

function redactionOf(
  headers: Readonly<Record<string, unknown>>,
  redacted: ReadonlySet<string>,
): TextRedaction {
  const secrets = headerSecrets(headers, redacted);
  const redactSecrets = createRedactor(secrets);
  const longest = secrets.reduce((most, secret) => Math.max(most, secret.length), 0);
  return {
    redact: (text) => redactUri(redactSecrets(text)),
    margin: Math.max(longest * ESCAPED_GROWTH, 256),
  };
}
