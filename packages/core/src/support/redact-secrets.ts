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
 * The patterns are built on the first call (building them takes a fraction of a millisecond, so
 * a redactor made per request costs nothing until something is redacted) and reused after.
 */
export function createRedactor(secrets: Iterable<string | undefined>): (text: string) => string {
  const list = [...secrets].filter((secret): secret is string => typeof secret === "string" && secret !== "");
  if (list.length === 0) return (text) => text;
  let patterns: readonly RegExp[] | undefined;
  return (text) => {
    patterns ??= cachedPatterns(list);
    let redacted = text;
    for (const pattern of patterns) redacted = redacted.replace(pattern, REDACTED);
    return redacted.includes("\\") ? redactEscaped(redacted, patterns) : redacted;
  };
}

/**
 * Redacts the secrets a JSON text carries with any of its characters escaped (`"sk-\u0061bc"`,
 * `\/`): the patterns run over the text with its escapes decoded, and each match replaces the
 * escaped text it came from. Linear in the text's length.
 */
function redactEscaped(text: string, patterns: readonly RegExp[]): string {
  const { decoded, starts } = decodeJsonEscapes(text);
  if (decoded.length === text.length) return text;
  const ranges: [number, number][] = [];
  for (const pattern of patterns) {
    for (const match of decoded.matchAll(pattern)) {
      if (match[0] !== "") ranges.push([starts[match.index]!, starts[match.index + match[0].length]!]);
    }
  }
  if (ranges.length === 0) return text;
  ranges.sort((left, right) => left[0] - right[0]);
  let result = "";
  let position = 0;
  for (const [start, end] of ranges) {
    if (end <= position) continue;
    result += `${text.slice(position, Math.max(start, position))}${start >= position ? REDACTED : ""}`;
    position = end;
  }
  return result + text.slice(position);
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** The text with its JSON escapes decoded, and where in the text each decoded unit starts. */
function decodeJsonEscapes(text: string): { decoded: string; starts: number[] } {
  const units: string[] = [];
  const starts: number[] = [];
  let index = 0;
  while (index < text.length) {
    starts.push(index);
    if (text[index] === "\\") {
      const next = text[index + 1] ?? "";
      const hex = next === "u" ? text.slice(index + 2, index + 6) : "";
      if (/^[0-9a-fA-F]{4}$/.test(hex)) {
        units.push(String.fromCharCode(Number.parseInt(hex, 16)));
        index += 6;
        continue;
      }
      const short = SHORT_ESCAPES[next];
      if (short !== undefined) {
        units.push(short);
        index += 2;
        continue;
      }
    }
    units.push(text[index]!);
    index++;
  }
  starts.push(text.length);
  return { decoded: units.join(""), starts };
}

/** Patterns of recently used secret lists: a tool redacting every call builds them once. */
const recentPatterns = new Map<string, RegExp[]>();
const RECENT_PATTERNS = 32;

function cachedPatterns(secrets: readonly string[]): RegExp[] {
  const key = JSON.stringify(secrets);
  let patterns = recentPatterns.get(key);
  if (patterns === undefined) {
    patterns = compilePatterns(secrets);
    if (recentPatterns.size >= RECENT_PATTERNS) {
      const oldest = recentPatterns.keys().next();
      if (oldest.done !== true) recentPatterns.delete(oldest.value);
    }
  } else recentPatterns.delete(key);
  recentPatterns.set(key, patterns);
  return patterns;
}

function compilePatterns(secrets: readonly string[]): RegExp[] {
  const exact = new Set<string>();
  const anyCase = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_ENCODED_LENGTH) exact.add(secret);
    else for (const form of encodedForms(secret)) anyCase.add(form);
  }
  return [alternation(anyCase, "gi"), alternation(exact, "g")].filter(
    (pattern): pattern is RegExp => pattern !== undefined,
  );
}

/** One regular expression matching any of the texts, longest first. */
function alternation(texts: ReadonlySet<string>, flags: string): RegExp | undefined {
  if (texts.size === 0) return undefined;
  const sources = [...texts].sort((left, right) => right.length - left.length).map(escapeRegExp);
  return new RegExp(sources.join("|"), flags);
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
