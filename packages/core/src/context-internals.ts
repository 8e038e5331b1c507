import type { RouteContext } from "./context-types.js";
import type { Logger } from "./logger.js";

/** What components and compilers may use of a context beyond its public API. */
export interface ContextInternals extends RouteContext {
  readonly logger: Logger;
  /** Counts work the context must wait for at shutdown (e.g. messages queued in seda). */
  trackPending(delta: number): void;
  /** The signal that fires when the context aborts in-flight work (stop past its timeout). */
  readonly shutdownSignal: AbortSignal;
}
