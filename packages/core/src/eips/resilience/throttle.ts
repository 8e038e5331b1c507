import {
  checkBoolean,
  checkNumber,
  checkOptionKeys,
  type OptionSite,
  optionError,
  routeSite,
} from "../../dsl/option-checks.js";
import { defineVerb } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import type { Exchange, Processor } from "../../model/exchange.js";
import type { ThrottleDefinition } from "../../model/steps/resilience-steps.js";
import { createConcurrencyGate, createRateGate, type ThrottleGate } from "./throttle-gates.js";

/** What happens to an exchange over the limit (both throttle modes). */
export interface ThrottleOverflowOptions {
  /** Fail over-limit exchanges at once (code THROTTLED) instead of letting them wait. Default false. */
  rejectExecution?: boolean;
  /** At most this many exchanges wait; one more fails with QUEUE_FULL. Default 1000. */
  maxQueued?: number;
}

/** Rate mode: at most `maxRequests` exchanges start in any `periodMs` window. */
export interface ThrottleRateOptions extends ThrottleOverflowOptions {
  /** Length of the window in ms. Default 1000. */
  periodMs?: number;
}

/** Concurrent mode: at most `concurrent` exchanges in the rest of the route at once. */
export interface ThrottleConcurrentOptions extends ThrottleOverflowOptions {
  concurrent: number;
}

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /** At most `maxRequests` exchanges start per `periodMs` (default 1000); the others wait in order. */
    throttle(maxRequests: number, options?: ThrottleRateOptions): RouteDsl<TBody>;
    /** At most `concurrent` exchanges run the rest of the block at once; the others wait in order. */
    throttle(options: ThrottleConcurrentOptions): RouteDsl<TBody>;
  }
}

const DEFAULT_MAX_QUEUED = 1000;

function overflow(
  site: OptionSite,
  options: ThrottleOverflowOptions,
): { rejectExecution: boolean; maxQueued: number } {
  return {
    rejectExecution: checkBoolean(site, "rejectExecution", options.rejectExecution) ?? false,
    maxQueued:
      checkNumber(site, "maxQueued", options.maxQueued, { minimum: 0, integer: true }) ?? DEFAULT_MAX_QUEUED,
  };
}

export const throttleVerb = defineVerb({
  record: (
    recorder,
    first: number | ThrottleConcurrentOptions,
    second?: ThrottleRateOptions,
  ): ThrottleDefinition => {
    const site = routeSite(recorder.route, "throttle");
    if (typeof first === "object" && first !== null) {
      if (second !== undefined) {
        throw new RoutekitError(
          "ROUTE_INVALID",
          `${site.where}: throttle({ concurrent }) takes one argument; for a rate use throttle(maxRequests, { periodMs })`,
        );
      }
      const options = checkOptionKeys<ThrottleConcurrentOptions>(site, first, [
        "concurrent",
        "rejectExecution",
        "maxQueued",
      ]);
      const concurrent = checkNumber(site, "concurrent", options.concurrent, { minimum: 1, integer: true });
      if (concurrent === undefined) throw optionError(site, "concurrent", "an integer >= 1", undefined);
      return {
        type: "throttle",
        mode: "concurrent",
        limit: concurrent,
        periodMs: 0,
        ...overflow(site, options),
      };
    }
    if (typeof first !== "number" || !Number.isInteger(first) || first < 1) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${site.where}: throttle() expects maxRequests as an integer >= 1, or { concurrent: n } ` +
          `(found ${typeof first === "number" ? first : typeof first})`,
      );
    }
    const options = checkOptionKeys<ThrottleRateOptions>(site, second, [
      "periodMs",
      "rejectExecution",
      "maxQueued",
    ]);
    const periodMs = checkNumber(site, "periodMs", options.periodMs, { minimum: 1 }) ?? 1000;
    return { type: "throttle", mode: "rate", limit: first, periodMs, ...overflow(site, options) };
  },
  step: {
    type: "throttle",
    compile: (definition, scope) => {
      const { routeId, label } = scope;
      const concurrent = definition.mode === "concurrent";
      const gate: ThrottleGate = concurrent
        ? createConcurrencyGate(definition.limit)
        : createRateGate(definition.limit, definition.periodMs);
      // The concurrent mode holds its permit while the rest of the block runs.
      const rest: Processor | undefined = concurrent ? scope.restOfBlock() : undefined;
      const limitText = concurrent
        ? `${definition.limit} exchange(s) already in flight`
        : `${definition.limit} exchange(s) already started in the last ${definition.periodMs} ms`;
      const { rejectExecution, maxQueued } = definition;

      const runRest = (exchange: Exchange): void | Promise<void> => {
        if (rest === undefined) return;
        let result: void | Promise<void>;
        try {
          result = rest(exchange);
        } catch (error) {
          gate.leave();
          throw error;
        }
        if (result === undefined) {
          gate.leave();
          return;
        }
        return result.finally(gate.leave);
      };

      return (exchange) => {
        if (gate.tryEnter()) return runRest(exchange);
        if (rejectExecution) {
          throw new RoutekitError(
            "THROTTLED",
            `Route '${routeId}': ${label} rejected the exchange: ${limitText} (rejectExecution is on)`,
          );
        }
        if (gate.line.length >= maxQueued) {
          throw new RoutekitError(
            "QUEUE_FULL",
            `Route '${routeId}': ${label} has ${gate.line.length} exchange(s) waiting (maxQueued ${maxQueued}) and ${limitText}; ` +
              "raise maxQueued, or set rejectExecution to fail fast",
          );
        }
        return gate.wait(exchange.signal).then(() => runRest(exchange));
      };
    },
    shape: {
      takesRestOfBlock: (definition) => definition.mode === "concurrent",
      runsUserCode: false,
    },
  },
});
