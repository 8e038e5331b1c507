import { AmqpError, describeError, redactUrl } from "./amqp-error.js";

/** The broker's answers to a login it will not accept: no retry changes them. */
const REFUSALS = [
  { pattern: /\b403 \(ACCESS-REFUSED\)/, reason: "refused the login: wrong user name or password" },
  { pattern: /\b530 \(NOT-ALLOWED\)/, reason: "refused the user access to the virtual host" },
] as const;

/**
 * A LOGIN_REFUSED error when `error` is the broker refusing the credentials (403) or the
 * virtual host (530) of `url`, else undefined. The URL's password is masked.
 */
export function loginRefusal(url: string, error: unknown): AmqpError | undefined {
  const text = describeError(error);
  const refusal = REFUSALS.find(({ pattern }) => pattern.test(text));
  if (refusal === undefined) return undefined;
  const user = userOf(url);
  return new AmqpError(
    "LOGIN_REFUSED",
    `RabbitMQ at ${redactUrl(url)} ${refusal.reason}${user} (broker said: ${text}). ` +
      "Not retried: check the user name, password and virtual host in the URL (amqpPlugin({ url }) or AMQP_URL)",
    { cause: error },
  );
}

function userOf(url: string): string {
  try {
    const user = decodeURIComponent(new URL(url).username);
    return user === "" ? " (no user in the URL: amqplib logs in as guest)" : ` (user '${user}')`;
  } catch {
    return "";
  }
}
