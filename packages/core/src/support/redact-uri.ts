import { REDACTED } from "./redact-secrets.js";

/**
 * Option names whose values are credentials: `password`, `apiKey`, `accessToken`, `clientSecret`,
 * ... (not `routingKey` or `partitionKey`: a key that names something is not a secret).
 */
const CREDENTIAL_NAME =
  /pass(word|phrase)?|pwd|secret|token|credential|signature|^auth|authorization|session|cookie|^key$|(api|access|private|signing|client)[-_]?key/i;

/**
 * The URI with the values of options that look like credentials replaced with `[redacted]`, and
 * the password of a `user:password@host` part too; everything else stays as written. Never throws:
 * text that is not a URI comes back with the same rules applied to what looks like options.
 */
export function redactUri(uri: string): string {
  const question = uri.indexOf("?");
  const path = question === -1 ? uri : uri.slice(0, question);
  const shownPath = path.replace(/(\/\/[^/?#:@]*:)[^/?#@]*@/, `$1${REDACTED}@`);
  if (question === -1) return shownPath;
  const options = uri
    .slice(question + 1)
    .split("&")
    .map((option) => {
      const equals = option.indexOf("=");
      if (equals === -1) return option;
      return CREDENTIAL_NAME.test(safeDecode(option.slice(0, equals)))
        ? `${option.slice(0, equals)}=${REDACTED}`
        : option;
    });
  return `${shownPath}?${options.join("&")}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
