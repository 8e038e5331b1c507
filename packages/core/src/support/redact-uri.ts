import { REDACTED } from "./redact-secrets.js";
import { isSecretName } from "./secret-names.js";

/** `//user:password@` or `//user@`: the user info of a URL (up to its last `@` before the path). */
const USER_INFO = /\/\/([^\s/?#]*)@/g;
/** `name=value` after `?`, `&`, `;` or `#`: a query or fragment parameter. */
const PARAMETER = /([?&;#])([^=&#?;\s]*)=([^&#;\s"'<>]*)/g;

/**
 * The URI with its credentials replaced with `[redacted]`: the user info of a `//user@host` or
 * `//user:password@host` part (the password, or a user name given alone: `https://TOKEN@host`
 * carries a token there), and the values of query and fragment parameters named like credentials
 * (`password`, `apiKey`, `api_key`, `access_token`, `token`, `sig`, ...; see `isSecretName`).
 * Everything else stays as written. Never throws, and works on any text: an error message that
 * mentions URLs comes back with theirs redacted.
 */
export function redactUri(uri: string): string {
  return uri
    .replace(USER_INFO, (_whole, userInfo: string) => {
      const colon = userInfo.indexOf(":");
      return colon === -1 ? `//${REDACTED}@` : `//${userInfo.slice(0, colon)}:${REDACTED}@`;
    })
    .replace(PARAMETER, (whole, separator: string, name: string) =>
      isSecretName(safeDecode(name)) ? `${separator}${name}=${REDACTED}` : whole,
    );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
