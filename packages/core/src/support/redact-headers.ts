import { copyRecord } from "./copy-record.js";
import { createRedactor, REDACTED } from "./redact-secrets.js";
import { redactUri } from "./redact-uri.js";
import { isSecretHeader, isSecretName } from "./secret-names.js";

/**
 * The secret values taken from one set of headers are bounded (a message's headers are an
 * attacker's, and each value adds some 40 forms to search every redacted text for): at most 32
 * values, each of 6 to 1024 characters (shorter ones would match noise), and 4096 characters in
 * all. A value past a bound is not searched for in other texts; the header holding it still reads
 * `[redacted]`.
 */
const MAX_SECRETS = 32;
const MIN_SECRET_CHARS = 6;
const MAX_SECRET_CHARS = 1024;
const MAX_TOTAL_SECRET_CHARS = 4096;
/** Nesting looked into for secret-named fields of an object-valued header (`http.reply.headers`). */
const MAX_DEPTH = 4;
/** Values looked at in all (headers, and the items and fields of object-valued ones). */
const MAX_VISITED = 4096;

/**
 * The credentials carried by `headers`: the values of headers named like secrets (see
 * `isSecretHeader`), the credential after an authorization scheme (`Bearer <token>`), the values
 * of a cookie header's pairs, and the secret-named fields of object-valued headers.
 */
export function headerSecrets(
  headers: Readonly<Record<string, unknown>>,
  extra?: ReadonlySet<string>,
): string[] {
  const secrets: string[] = [];
  let total = 0;
  const add = (value: string): void => {
    if (value.length < MIN_SECRET_CHARS || value.length > MAX_SECRET_CHARS) return;
    if (secrets.length === MAX_SECRETS || total + value.length > MAX_TOTAL_SECRET_CHARS) return;
    if (secrets.includes(value)) return;
    secrets.push(value);
    total += value.length;
  };
  let visited = 0;
  const collect = (value: unknown, secret: boolean, depth: number): void => {
    if (secrets.length === MAX_SECRETS || ++visited > MAX_VISITED) return;
    if (typeof value === "string") {
      if (!secret) return;
      add(value);
      const credential = /^[A-Za-z][A-Za-z-]* +(\S.*)$/.exec(value)?.[1];
      if (credential !== undefined) add(credential);
      if (value.includes("=")) for (const pair of value.split(/; */)) add(pair.slice(pair.indexOf("=") + 1));
    } else if (typeof value === "number" || typeof value === "bigint") {
      if (secret) add(String(value));
    } else if (Array.isArray(value)) {
      if (depth < MAX_DEPTH) for (const item of value) collect(item, secret, depth + 1);
    } else if (
      typeof value === "object" &&
      value !== null &&
      depth < MAX_DEPTH &&
      !ArrayBuffer.isView(value)
    ) {
      for (const [name, field] of Object.entries(value))
        collect(field, secret || isSecretName(name), depth + 1);
    }
  };
  for (const name in headers) collect(headers[name], isSecretHeader(name, extra), 0);
  return secrets;
}

/**
 * A redactor for texts about a message that leave the process (an error text, a log line, a span
 * attribute): every credential `headers` carry (see `headerSecrets`), in any encoding, and the
 * credentials of the URLs the text mentions (see `redactUri`).
 */
export function headerRedactor(
  headers: Readonly<Record<string, unknown>>,
  extra?: ReadonlySet<string>,
): (text: string) => string {
  const redact = createRedactor(headerSecrets(headers, extra));
  return (text) => redactUri(redact(text));
}

/**
 * A copy of `headers` fit to leave the process (a log line, a dead letter, a span): headers named
 * like secrets read `[redacted]`, so do secret-named fields of object-valued headers, and the
 * credentials of other headers are redacted from their text.
 */
export function redactHeaders(
  headers: Readonly<Record<string, unknown>>,
  extra?: ReadonlySet<string>,
): Record<string, unknown> {
  const redact = headerRedactor(headers, extra);
  const copy = copyRecord(headers) as Record<string, unknown>;
  for (const name of Object.keys(copy)) {
    copy[name] = isSecretHeader(name, extra) ? REDACTED : redactValue(copy[name], redact, 0);
  }
  return copy;
}

/** A value with secret-named fields replaced and its texts redacted (objects copied, depth bounded). */
export function redactValue(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value)) return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [name, field] of Object.entries(value)) {
    copy[name] = isSecretName(name) && field != null ? REDACTED : redactValue(field, redact, depth + 1);
  }
  return copy;
}
