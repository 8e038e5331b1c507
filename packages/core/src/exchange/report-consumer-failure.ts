import { messageOf } from "../errors/errors.js";
import type { Exchange, RouteContext } from "../model/exchange.js";
import { headerRedactor } from "../support/redact-headers.js";
import { redactUri } from "../support/redact-uri.js";
import { runtime } from "./runtime-exchange.js";

/**
 * What a consumer does with an exchange its route failed: nobody waits for it (`dropped`: a timer
 * tick, an InOnly seda message), the remote caller got the error (`answered`: an HTTP 500, an
 * error reply), the broker will deliver it again (`redelivering`), it went to a dead-letter queue
 * (`dead-lettered`), it was rejected with nowhere to go (`rejected`), or handed back to the broker
 * untouched (`requeued`: the broker refused its retry).
 */
export type ConsumerFailureOutcome =
  | { readonly kind: "dropped" }
  | { readonly kind: "answered"; readonly how: string }
  | { readonly kind: "redelivering"; readonly redelivery: number; readonly maxRedeliveries: number }
  | { readonly kind: "dead-lettered"; readonly to: string }
  | { readonly kind: "rejected"; readonly why: string }
  | { readonly kind: "requeued"; readonly why: string };

/** Longest error text one log line carries: the error may quote an attacker's message. */
const MAX_ERROR_TEXT = 2000;

/** Characters past the cut redaction looks at: a header secret (1024 at most) in its longest encoding. */
const REDACTION_MARGIN = 8192;

/**
 * The error's text on one line (a message cannot forge log lines), bounded before it is scanned,
 * without the credentials the exchange's headers carry or those of URLs (redacted before the cut,
 * so a cut never leaves a secret's first characters).
 */
function errorText(error: unknown, headers: Readonly<Record<string, unknown>>): string {
  const text = messageOf(error);
  const redacted = headerRedactor(headers)(text.slice(0, MAX_ERROR_TEXT + REDACTION_MARGIN));
  const bounded =
    text.length > MAX_ERROR_TEXT || redacted.length > MAX_ERROR_TEXT
      ? `${redacted.slice(0, MAX_ERROR_TEXT)}...`
      : redacted;
  return bounded.replace(/[\r\n]+/g, " ");
}

function outcomeText(outcome: ConsumerFailureOutcome): string {
  switch (outcome.kind) {
    case "dropped":
      return "";
    case "answered":
      return `; ${outcome.how}`;
    case "redelivering":
      return `; redelivering (${outcome.redelivery} of ${outcome.maxRedeliveries})`;
    case "dead-lettered":
      return `; dead-lettered to '${outcome.to}'`;
    case "rejected":
      return `; rejected (${outcome.why})`;
    case "requeued":
      return `; requeued (${outcome.why})`;
  }
}

/**
 * The one log line of an exchange a consumer's route failed, written by the consumer once it
 * knows what becomes of the exchange; every consumer (seda, timer, observable source, http,
 * amqp, a component of your own) reports through here, so failures read the same everywhere:
 * `<source>: exchange <id> failed in route '<route>' at step <step>: <error>[; <outcome>]`.
 * A redelivery or a requeue is a warning (the message comes back); every other outcome is an error. Does
 * nothing when the exchange did not fail (its route's error handler dealt with it), unless
 * `error` names the failure (an HTTP reply that could not be written).
 */
export function reportConsumerFailure(
  context: RouteContext,
  exchange: Exchange,
  source: string,
  outcome: ConsumerFailureOutcome,
  error: unknown = exchange.error,
): void {
  if (error === undefined) return;
  const failure = runtime(exchange).failure;
  const where = failure === undefined ? "" : ` in route '${failure.routeId}' at step ${failure.step}`;
  const text = errorText(error, exchange.headers);
  const line = `${redactUri(source)}: exchange ${exchange.id} failed${where}: ${text}${outcomeText(outcome)}`;
  if (outcome.kind === "redelivering" || outcome.kind === "requeued") context.logger.warn(line);
  else context.logger.error(line);
}
