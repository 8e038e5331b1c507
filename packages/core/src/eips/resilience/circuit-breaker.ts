import { EXCEPTION_CAUGHT } from "../../compile/error-policy.js";
import { withoutErrorHandling } from "../../compile/pipeline.js";
import {
  checkNumber,
  checkOptionalBlock,
  checkOptionKeys,
  optionError,
  routeSite,
} from "../../dsl/option-checks.js";
import type { Step } from "../../dsl/route-dsl.js";
import { defineVerb } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import { type RuntimeExchange, runtime } from "../../exchange/runtime-exchange.js";
import type { Exchange } from "../../model/exchange.js";
import type { CircuitBreakerDefinition } from "../../model/step-definition.js";
import { andThen, clearError } from "./caught-error.js";

/** The states of a circuit breaker. */
export type CircuitState = "closed" | "open" | "half-open";

/** Options of `circuitBreaker`. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit (an integer >= 1). */
  failureThreshold: number;
  /** How long the circuit stays open before one trial call is let through, in ms. */
  resetTimeout: number;
  /** Runs instead of the step when the step fails or the circuit is open (the error is `${exception}`). */
  fallback?: Step<unknown>;
}

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Runs `step` behind a circuit breaker: after `failureThreshold` consecutive failures calls
     * short-circuit (to `fallback`, or a CIRCUIT_OPEN error) for `resetTimeout` ms, then one trial
     * call decides between closing and re-opening. State is per circuitBreaker step.
     */
    circuitBreaker(step: Step<TBody>, options: CircuitBreakerOptions): RouteDsl<unknown>;
  }
}

declare module "../../exchange/events.js" {
  interface RoutekitEvents {
    "circuit-state-changed": { routeId: string; step: string; from: CircuitState; to: CircuitState };
  }
}

export const circuitBreakerVerb = defineVerb({
  record: (recorder, step: Step<unknown>, options: CircuitBreakerOptions): CircuitBreakerDefinition => {
    const site = routeSite(recorder.route, "circuitBreaker");
    if (typeof step !== "function") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${site.where}: circuitBreaker() expects the protected step as a callback like (route) => route.to("direct:x"), found ${typeof step}`,
      );
    }
    const checked = checkOptionKeys<CircuitBreakerOptions>(site, options, [
      "failureThreshold",
      "resetTimeout",
      "fallback",
    ]);
    const failureThreshold = checkNumber(site, "failureThreshold", checked.failureThreshold, {
      minimum: 1,
      integer: true,
    });
    const resetTimeout = checkNumber(site, "resetTimeout", checked.resetTimeout, { minimum: 0 });
    if (failureThreshold === undefined)
      throw optionError(site, "failureThreshold", "an integer >= 1 (it is required)", undefined);
    if (resetTimeout === undefined)
      throw optionError(site, "resetTimeout", "a number of ms >= 0 (it is required)", undefined);
    checkOptionalBlock(site, "fallback", checked.fallback);
    return {
      type: "circuitBreaker",
      steps: recorder.block(step as (route: never) => unknown),
      failureThreshold,
      resetTimeout,
      fallback:
        checked.fallback === undefined
          ? undefined
          : recorder.block(checked.fallback as (route: never) => unknown),
    };
  },
  step: {
    type: "circuitBreaker",
    compile: (definition, scope) => {
      const { routeId, label, context } = scope;
      const { failureThreshold, resetTimeout } = definition;
      const protectedBlock = scope.compileSteps(definition.steps, label);
      const fallback =
        definition.fallback === undefined
          ? undefined
          : scope.compileSteps(definition.fallback, `${label} fallback`);
      let state: CircuitState = "closed";
      let failures = 0;
      let openedAt = 0;
      // Results of calls started before the last transition do not count (e.g. a slow call that
      // fails after the circuit already opened, or a closed-state call ending during a trial).
      let generation = 0;

      const moveTo = (to: CircuitState): void => {
        const from = state;
        state = to;
        generation++;
        if (to === "open") openedAt = Date.now();
        if (to === "closed") failures = 0;
        if (context.events.has("circuit-state-changed")) {
          context.events.emit("circuit-state-changed", { routeId, step: label, from, to });
        }
      };

      const toFallback = (target: RuntimeExchange, error: Error): void | Promise<void> => {
        if (fallback === undefined) {
          target.error = error;
          return;
        }
        target.properties[EXCEPTION_CAUGHT] = error;
        clearError(target);
        return withoutErrorHandling(target, routeId, () => fallback(target));
      };

      const shortCircuit = (target: RuntimeExchange): void | Promise<void> => {
        const now = Date.now();
        const reopensAt = openedAt + resetTimeout;
        const why =
          state === "half-open"
            ? "is half-open and its trial call is still running"
            : `is open after ${failureThreshold} consecutive failure(s); it half-opens at ${new Date(reopensAt).toISOString()} (in ${Math.max(0, reopensAt - now)} ms)`;
        return toFallback(
          target,
          new RoutekitError("CIRCUIT_OPEN", `Route '${routeId}': circuit breaker ${label} ${why}`),
        );
      };

      const record = (target: RuntimeExchange, startedIn: number): void | Promise<void> => {
        const error = target.error;
        if (startedIn === generation) {
          if (error === undefined) {
            if (state === "half-open") moveTo("closed");
            else failures = 0;
          } else if (state === "half-open") {
            moveTo("open");
          } else if (state === "closed" && ++failures >= failureThreshold) {
            moveTo("open");
          }
        }
        if (error !== undefined) return toFallback(target, error);
      };

      return (exchange: Exchange) => {
        const target = runtime(exchange);
        if (state === "open" && Date.now() >= openedAt + resetTimeout) moveTo("half-open");
        else if (state !== "closed") return shortCircuit(target);
        const startedIn = generation;
        return andThen(
          withoutErrorHandling(target, routeId, () => protectedBlock(target)),
          () => record(target, startedIn),
        );
      };
    },
    shape: {
      blocks: (definition) => [
        { name: "steps", suffix: "", options: {}, steps: definition.steps },
        ...(definition.fallback === undefined
          ? []
          : [{ name: "fallback", suffix: " fallback", options: {}, steps: definition.fallback }]),
      ],
      // Its state changes reach the context's event listeners while it runs.
      runsUserCode: true,
    },
  },
});
