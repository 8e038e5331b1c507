import { REDACTED } from "@routekit/core/internal";

/** Query parameter names whose values are treated as secrets (matched case-insensitively). */
const SECRET_PARAMETER =
  /key|token|secret|passw|pwd|auth|credential|signature|session|jwt|^sig$|^code$|^pass$/i;

/**
 * A URL fit for errors, logs and route expressions: no user name or password, no fragment, and
 * the value of every query parameter whose name looks secret (`api_key`, `access_token`,
 * `X-Amz-Signature`, `sig`, `password`, `code`, ...) replaced by `[redacted]`. Other parameters
 * are kept exactly as written.
 */
export function secretFreeUrl(url: URL): string {
  const query = url.search === "" ? "" : `?${url.search.slice(1).split("&").map(redactPair).join("&")}`;
  const host = url.host === "" ? "" : `//${url.host}`;
  return `${url.protocol}${host}${url.pathname}${query}`;
}

function redactPair(pair: string): string {
  const separator = pair.indexOf("=");
  if (separator < 0) return pair;
  const name = pair.slice(0, separator);
  return SECRET_PARAMETER.test(decodeName(name)) ? `${name}=${REDACTED}` : pair;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll("+", " "));
  } catch {
    return name;
  }
}
