import { EXCEPTION_CAUGHT } from "../../compile/error-policy.js";
import { withoutErrorHandling } from "../../compile/pipeline.js";
import { isErrorClass } from "../../dsl/error-handling.js";
import { checkOptionKeys, routeSite } from "../../dsl/option-checks.js";
import type { Step } from "../../dsl/route-dsl.js";
import { defineVerb } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import { type RuntimeExchange, runtime } from "../../exchange/runtime-exchange.js";
import type { Exchange, Processor } from "../../model/exchange.js";
import type { ErrorClass } from "../../model/route-definition.js";
import type { DoTryDefinition } from "../../model/step-definition.js";
import { andThen, clearError } from "./caught-error.js";

/** One catch clause: the error class(es) it catches and the steps to run. */
export type CatchClause = readonly [ErrorClass | readonly ErrorClass[], Step<unknown>];

/** Options of `doTry`: catch clauses (tried in order, the first match wins) and a finally block. */
export interface DoTryOptions {
  catch?: readonly CatchClause[];
  finally?: Step<unknown>;
}

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Runs `step` like a try block: an error matching a catch clause (first match in order,
     * by instanceof) runs that clause instead of failing; `finally` always runs. The route's
     * onException and redelivery do not apply inside; an error leaving the doTry does meet them.
     */
    doTry(step: Step<TBody>, options: DoTryOptions): RouteDsl<unknown>;
  }
}

export const doTryVerb = defineVerb({
  record: (recorder, step: Step<unknown>, options: DoTryOptions): DoTryDefinition => {
    const site = routeSite(recorder.route, "doTry");
    if (typeof step !== "function") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${site.where}: doTry() expects the try block as a callback like (route) => route.to("direct:x"), found ${typeof step}`,
      );
    }
    const checked = checkOptionKeys<DoTryOptions>(site, options, ["catch", "finally"]);
    const clauses = checked.catch ?? [];
    if (!Array.isArray(clauses)) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${site.where}: doTry() option 'catch' must be an array of [ErrorClass, (route) => ...] pairs (found ${typeof clauses})`,
      );
    }
    const catches = clauses.map((clause: unknown, index) => {
      const pair = Array.isArray(clause) ? clause : [];
      const errors: unknown[] = Array.isArray(pair[0]) ? pair[0] : [pair[0]];
      if (
        pair.length !== 2 ||
        errors.length === 0 ||
        !errors.every(isErrorClass) ||
        typeof pair[1] !== "function"
      ) {
        throw new RoutekitError(
          "ROUTE_INVALID",
          `${site.where}: doTry() catch[${index}] must be a pair [ErrorClass (or an array of them), (route) => ...], ` +
            `e.g. [TypeError, (route) => route.to("mock:bad")]`,
        );
      }
      return { errors: errors as ErrorClass[], steps: recorder.block(pair[1] as (route: never) => unknown) };
    });
    if (checked.finally !== undefined && typeof checked.finally !== "function") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${site.where}: doTry() option 'finally' must be a block callback like (route) => route.to("mock:x") (found ${typeof checked.finally})`,
      );
    }
    if (catches.length === 0 && checked.finally === undefined) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${site.where}: doTry() needs at least one catch clause or a finally block`,
      );
    }
    return {
      type: "doTry",
      steps: recorder.block(step as (route: never) => unknown),
      catches,
      finally:
        checked.finally === undefined
          ? undefined
          : recorder.block(checked.finally as (route: never) => unknown),
    };
  },
  step: {
    type: "doTry",
    compile: (definition, scope) => {
      const routeId = scope.routeId;
      const tryBlock = scope.compileSteps(definition.steps, `${scope.label} try`);
      const catches = definition.catches.map((clause, index) => ({
        errors: clause.errors,
        block: scope.compileSteps(clause.steps, `${scope.label} catch[${index}]`),
      }));
      const finallyBlock =
        definition.finally === undefined
          ? undefined
          : scope.compileSteps(definition.finally, `${scope.label} finally`);

      const runCatch = (target: RuntimeExchange): void | Promise<void> => {
        const error = target.error;
        if (error === undefined) return;
        const clause = catches.find((candidate) =>
          candidate.errors.some((errorClass) => error instanceof errorClass),
        );
        if (clause === undefined) return;
        target.properties[EXCEPTION_CAUGHT] = error;
        clearError(target);
        return withoutErrorHandling(target, routeId, () => clause.block(target));
      };

      const runFinally = (target: RuntimeExchange, block: Processor): void | Promise<void> => {
        // Set the pending error (and a stop()) aside while the finally block runs; restore it after,
        // unless the finally block failed: its error replaces the pending one.
        const pending = { error: target.error, failure: target.failure, exhaustedIn: target.exhaustedIn };
        const stopped = target.stopped;
        if (pending.error !== undefined) target.properties[EXCEPTION_CAUGHT] = pending.error;
        clearError(target);
        target.stopped = false;
        return andThen(
          withoutErrorHandling(target, routeId, () => block(target)),
          () => {
            target.stopped ||= stopped;
            if (target.error !== undefined) return;
            target.error = pending.error;
            target.failure = pending.failure;
            target.exhaustedIn = pending.exhaustedIn;
          },
        );
      };

      return (exchange: Exchange) => {
        const target = runtime(exchange);
        const caught = andThen(
          withoutErrorHandling(target, routeId, () => tryBlock(target)),
          () => runCatch(target),
        );
        if (finallyBlock === undefined) return caught;
        return andThen(caught, () => runFinally(target, finallyBlock));
      };
    },
    shape: {
      blocks: (definition) => [
        { name: "try", suffix: " try", options: {}, steps: definition.steps },
        ...definition.catches.map((clause, index) => ({
          name: `catch[${index}]`,
          suffix: ` catch[${index}]`,
          options: { errors: clause.errors },
          steps: clause.steps,
        })),
        ...(definition.finally === undefined
          ? []
          : [{ name: "finally", suffix: " finally", options: {}, steps: definition.finally }]),
      ],
      runsUserCode: false,
    },
  },
});
