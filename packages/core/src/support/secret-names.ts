/**
 * Names whose values are credentials: `authorization`, `cookie`, `password`, `apiKey`, `x-api-key`,
 * `access_token`, `clientSecret`, `sig`, ... Not `routingKey`, `partitionKey` (a key that names
 * something) nor `maxTokens`, `llm.tokens.in` (counts of tokens).
 */
const SECRET_NAME =
  /pass(word|phrase)?|pwd|secret|token(?!s)|credential|signature|^sig$|^auth|authorization|session|cookie|^key$|(api|access|private|signing|client|subscription)[-_.]?key/i;

/**
 * Prefixes under which components put the header names of a protocol (`http.header.`,
 * `http.request.header.`, ...), declared by the components themselves (`Component.headerPrefixes`).
 * Process-wide: a prefix only says where a header's own name starts, so sharing it is harmless.
 */
const headerPrefixes = new Set<string>();
let longestFirst: readonly string[] = [];

/** Declares prefixes a component puts before protocol header names (adding a known one is a no-op). */
export function declareHeaderPrefixes(prefixes: Iterable<string>): void {
  let added = false;
  for (const prefix of prefixes) {
    if (typeof prefix !== "string" || prefix === "" || headerPrefixes.has(prefix.toLowerCase())) continue;
    headerPrefixes.add(prefix.toLowerCase());
    added = true;
  }
  if (added) longestFirst = [...headerPrefixes].sort((left, right) => right.length - left.length);
}

/**
 * A header's own name, lower-cased: the exchange header name without the longest declared
 * component prefix (`http.request.header.X-Api-Key` → `x-api-key`).
 */
export function headerBaseName(name: string): string {
  const lower = name.toLowerCase();
  for (const prefix of longestFirst) if (lower.startsWith(prefix)) return lower.slice(prefix.length);
  return lower;
}

/** Whether an option, parameter or field name is one whose value is a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * Whether a header's value is a credential: its base name (see `headerBaseName`) is named like
 * one, or is among `extra` (lower-case base names, e.g. the console's `redactHeaders`).
 */
export function isSecretHeader(name: string, extra?: ReadonlySet<string>): boolean {
  const base = headerBaseName(name);
  return isSecretName(base) || (extra !== undefined && (extra.has(base) || extra.has(name.toLowerCase())));
}
