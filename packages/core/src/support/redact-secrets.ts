import { escapedRangesOf, lowerCase, rangesOf, replaceRanges, type SecretForms } from "./secret-ranges.js";

/** What every redacted secret is replaced with. */
export const REDACTED = "[redacted]";

/** Secrets shorter than this are redacted only as written: their encodings would match noise. */
const MIN_ENCODED_LENGTH = 6;
/** Encoded fragments shorter than this are not used (a base64 fragment of a short secret). */
const MIN_FRAGMENT_LENGTH = 6;

/**
 * Replaces every copy of each secret in `text` with `[redacted]`, in every form an error body,
 * a log line or an echoing server is likely to carry it: as written, in any letter case,
 * JSON-escaped (also with `\/` and `\uXXXX` escapes), URL-encoded (component, URI and form
 * encoding), hex, and base64 / base64url — including inside a longer base64 text such as a Basic
 * authorization header, at any byte alignment. Empty secrets are ignored; secrets shorter than 6
 * characters are redacted only as written. Redact before cutting a text to an excerpt, so that a
 * cut never leaves a secret's prefix behind.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  return createRedactor(secrets)(text);
}

/**
 * A redactor for a fixed list of secrets, equivalent to `(text) => redactSecrets(text, secrets)`.
 * The forms searched for are built on the first call (a redactor made per request costs nothing
 * until something is redacted) and reused after. The search is plain text search, one pass over
 * the text per form: no pattern is compiled, so long secrets cost no more than short ones.
 */
export function createRedactor(secrets: Iterable<string | undefined>): (text: string) => string {
  const list = [...secrets].filter((secret): secret is string => typeof secret === "string" && secret !== "");
  if (list.length === 0) return (text) => text;
  let forms: SecretForms | undefined;
  return (text) => {
    forms ??= cachedForms(list);
    const redacted = replaceRanges(text, rangesOf(text, forms), REDACTED);
    return redacted.includes("\\")
      ? replaceRanges(redacted, escapedRangesOf(redacted, forms), REDACTED)
      : redacted;
  };
}

/** Forms of recently used secret lists: a tool redacting every call builds them once. */
const recentForms = new Map<string, SecretForms>();
const RECENT_FORMS = 32;

function cachedForms(secrets: readonly string[]): SecretForms {
  const key = JSON.stringify(secrets);
  let forms = recentForms.get(key);
  if (forms === undefined) {
    forms = formsOf(secrets);
    if (recentForms.size >= RECENT_FORMS) {
      const oldest = recentForms.keys().next();
      if (oldest.done !== true) recentForms.delete(oldest.value);
    }
  } else recentForms.delete(key);
  recentForms.set(key, forms);
  return forms;
}

function formsOf(secrets: readonly string[]): SecretForms {
  const exact = new Set<string>();
  const anyCase = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_ENCODED_LENGTH) exact.add(secret);
    else for (const form of encodedForms(secret)) anyCase.add(lowerCase(form));
  }
  return { anyCase: [...anyCase], exact: [...exact] };
}

/** Every form of a secret that is searched for (matched case-insensitively). */
function encodedForms(secret: string): Set<string> {
  const forms = new Set<string>();
  const add = (form: string): void => {
    if (form.length >= MIN_FRAGMENT_LENGTH) forms.add(form);
  };
  for (const text of new Set([secret, secret.toLowerCase(), secret.toUpperCase()])) {
    add(text);
    const json = JSON.stringify(text).slice(1, -1);
    add(json);
    add(json.replaceAll("/", "\\/"));
    add(unicodeEscaped(text));
    add(encodeURIComponent(text));
    add(encodeURI(text));
    add(new URLSearchParams({ s: text }).toString().slice(2));
    const bytes = Buffer.from(text, "utf8");
    add(bytes.toString("hex"));
    for (const fragment of base64Fragments(bytes)) {
      add(fragment);
      add(fragment.replaceAll("+", "-").replaceAll("/", "_"));
    }
  }
  return forms;
}

/**
 * The base64 characters that depend only on the secret's bytes when the secret starts at byte
 * offset 0, 1 or 2 of a longer encoded text (the characters that straddle its neighbours are
 * left out), plus the whole padded and unpadded encodings of the secret alone.
 */
function base64Fragments(bytes: Buffer): string[] {
  const whole = bytes.toString("base64");
  const fragments = [whole, whole.replace(/=+$/, "")];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const start = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    if (end > start) fragments.push(encoded.slice(start, end));
  }
  return fragments;
}

function unicodeEscaped(text: string): string {
  let escaped = "";
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    escaped +=
      code < 0x20 || code > 0x7e || character === '"' || character === "\\" || character === "/"
        ? Array.from({ length: character.length }, (_, index) =>
            unicodeEscape(character.charCodeAt(index)),
          ).join("")
        : character;
  }
  return escaped;
}

function unicodeEscape(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, "0")}`;
}
