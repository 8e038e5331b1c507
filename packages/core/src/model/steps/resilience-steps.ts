import type { IdempotentRepository } from "../repositories.js";
import type { ExpressionInput } from "../step-inputs.js";

/** `throttle(...)`: a rate (`maxRequests` per `periodMs`) or a bound on concurrent exchanges. */
export interface ThrottleDefinition {
  readonly type: "throttle";
  readonly mode: "rate" | "concurrent";
  readonly limit: number;
  /** The window of the rate mode in ms; 0 in the concurrent mode. */
  readonly periodMs: number;
  readonly rejectExecution: boolean;
  readonly maxQueued: number;
}

/** `idempotentConsumer(key, options)`: lets each key through once; takes over the rest of the block. */
export interface IdempotentConsumerDefinition {
  readonly type: "idempotentConsumer";
  readonly key: ExpressionInput;
  readonly repository: IdempotentRepository | undefined;
  readonly skipDuplicate: boolean;
  readonly maximumSize: number | undefined;
}
