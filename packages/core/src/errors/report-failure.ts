import type { Exchange } from "../model/exchange.js";
import type { ContextInternals } from "../runtime/context-internals.js";
import { runtime } from "../runtime/runtime-exchange.js";
import { headerRedactor } from "../support/redact-headers.js";
import { redactUri } from "../support/redact-uri.js";
import { messageOf } from "./errors.js";

/**
 * Logs the failure of an exchange nobody waits for (a timer tick, an InOnly seda message): with no
 * caller to hand the error to, it must at least be visible. Names the route and the failing step;
 * the credentials the exchange's headers carry, and those of URLs, are redacted from the text.
 */
export function reportUnhandledFailure(context: ContextInternals, exchange: Exchange, source: string): void {
  const error = exchange.error;
  if (error === undefined) return;
  const failure = runtime(exchange).failure;
  const where = failure === undefined ? "" : ` in route '${failure.routeId}' at step ${failure.step}`;
  const redact = headerRedactor(exchange.headers);
  context.logger.error(
    `${redactUri(source)}: exchange ${exchange.id} failed${where}: ${redact(messageOf(error))}`,
  );
}
