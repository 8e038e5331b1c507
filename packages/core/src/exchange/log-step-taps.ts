import type { Exchange, RouteContext } from "../model/exchange.js";
import type { LogLevel } from "../model/route-definition.js";
import { defineServiceKey } from "../model/service-key.js";

/**
 * Hears every line a route's `log` step writes, with the exchange it was written for — whatever
 * the context's log level (a package forwards the lines elsewhere, e.g. to an MCP client).
 * `message` is the rendered line without the logger prefix; `logger` is the step's logger name.
 */
export type LogStepTap = (exchange: Exchange, level: LogLevel, message: string, logger: string) => void;

const LOG_STEP_TAPS = defineServiceKey("routekit.logStepTaps", () => new Set<LogStepTap>());

/** The taps of a context's `log` steps: add one to hear them, delete it to stop. */
export function logStepTapsOf(context: Pick<RouteContext, "service">): Set<LogStepTap> {
  return context.service(LOG_STEP_TAPS);
}
