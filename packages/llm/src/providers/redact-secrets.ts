/** Header names whose values are treated as secrets (API keys, tokens, cookies). */
const SECRET_HEADER = /auth|key|token|secret|cookie|session|password/i;

// The one redaction of the project (every case and encoding of each secret): core's.
export { redactSecrets } from "@routekit/core/internal";

/** The values of headers that look secret, plus the API key: what must never reach an error or a log. */
export function collectSecrets(
  apiKey: string | undefined,
  headers: Record<string, string> | undefined,
): string[] {
  const secrets: string[] = [];
  if (apiKey) secrets.push(apiKey);
  if (headers) {
    for (const [name, value] of Object.entries(headers)) {
      if (SECRET_HEADER.test(name) && value) secrets.push(value);
    }
  }
  return secrets;
}
