import type { ContextInternals } from "./context-internals.js";
import { type RuntimeExchange, runtime } from "./create-exchange.js";
import type { Processor } from "./exchange.js";
import { compilePredicate } from "./expressions/index.js";
import type { FailurePolicy } from "./pipeline.js";
import type {
  ErrorHandlerDefinition,
  ErrorHandlingDefinition,
  OnExceptionDefinition,
  PredicateInput,
  RedeliveryOptions,
  RouteDefinition,
  StepDefinition,
} from "./route-definition.js";
import { sleep } from "./sleep.js";

/** Header names the error handler sets; visible to steps and expressions. */
export const REDELIVERY_COUNTER = "routekit.redeliveryCounter";
export const REDELIVERED = "routekit.redelivered";
/** Property holding the error while onException steps run (`${exception.message}` reads it). */
export const EXCEPTION_CAUGHT = "routekit.exceptionCaught";

/** A policy that handles nothing: the failure propagates to the caller. */
export function givingUp(routeId: string): FailurePolicy {
  return (exchange) => {
    exchange.exhaustedIn = routeId;
  };
}

interface Clause {
  readonly definition: OnExceptionDefinition;
  readonly steps: Processor | undefined;
  readonly onWhen: ((exchange: RuntimeExchange) => boolean) | undefined;
  readonly handled: ((exchange: RuntimeExchange) => boolean) | undefined;
  readonly continued: ((exchange: RuntimeExchange) => boolean) | undefined;
  readonly retryWhile: ((exchange: RuntimeExchange) => boolean) | undefined;
}

function flag(
  value: boolean | PredicateInput | undefined,
): ((exchange: RuntimeExchange) => boolean) | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return () => true;
  return compilePredicate(value);
}

/** How far up the prototype chain `error` is from `errorClass` (0 = exact), or -1 when unrelated. */
function distance(error: Error, errorClass: abstract new (...args: never[]) => Error): number {
  let depth = 0;
  for (
    let proto = Object.getPrototypeOf(error);
    proto !== null;
    proto = Object.getPrototypeOf(proto), depth++
  ) {
    if (proto === errorClass.prototype) return depth;
  }
  return -1;
}

/** The matching clause with the most specific error class; route-local clauses are tried first. */
function match(scopes: readonly (readonly Clause[])[], exchange: RuntimeExchange): Clause | undefined {
  const error = exchange.error!;
  for (const clauses of scopes) {
    let best: Clause | undefined;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const clause of clauses) {
      for (const errorClass of clause.definition.errors) {
        const value = distance(error, errorClass);
        if (value >= 0 && value < bestDistance && (clause.onWhen === undefined || clause.onWhen(exchange))) {
          best = clause;
          bestDistance = value;
        }
      }
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

function delayFor(options: RedeliveryOptions, attempt: number): number {
  const base = options.redeliveryDelay ?? 1000;
  const multiplier = options.backOffMultiplier ?? (options.useExponentialBackOff === true ? 2 : 1);
  return Math.min(base * multiplier ** (attempt - 1), options.maximumRedeliveryDelay ?? 60_000);
}

/**
 * Builds a route's failure policy from its error handling (route-local first, then builder-wide):
 * redelivery at the failing step, then the matched clause's disposition (handled, continued, its
 * steps) or the error handler's dead letter channel; otherwise the error goes back to the caller.
 */
export function createFailurePolicy(
  route: RouteDefinition,
  builder: ErrorHandlingDefinition,
  context: ContextInternals,
  compileClause: (steps: readonly StepDefinition[], label: string) => Processor,
): FailurePolicy {
  const toClauses = (definitions: readonly OnExceptionDefinition[], scope: string): Clause[] =>
    definitions.map((definition, index) => ({
      definition,
      steps:
        definition.steps === undefined || definition.steps.length === 0
          ? undefined
          : compileClause(definition.steps, `onException[${scope}${index}]`),
      onWhen: definition.onWhen === undefined ? undefined : compilePredicate(definition.onWhen),
      handled: flag(definition.handled),
      continued: flag(definition.continued),
      retryWhile: definition.retryWhile === undefined ? undefined : compilePredicate(definition.retryWhile),
    }));
  const scopes = [toClauses(route.errorHandling.onException, "route "), toClauses(builder.onException, "")];
  const handler: ErrorHandlerDefinition = route.errorHandling.errorHandler ?? builder.errorHandler ?? {};
  const handlerRetryWhile =
    handler.retryWhile === undefined ? undefined : compilePredicate(handler.retryWhile);
  const deadLetter =
    handler.deadLetterUri === undefined ? undefined : context.endpoint(handler.deadLetterUri);
  const routeId = route.id;
  if (
    scopes[0]!.length === 0 &&
    scopes[1]!.length === 0 &&
    deadLetter === undefined &&
    (handler.maximumRedeliveries ?? 0) === 0
  ) {
    return givingUp(routeId);
  }

  const clear = (exchange: RuntimeExchange): void => {
    exchange.error = undefined;
    exchange.failure = undefined;
    exchange.exhaustedIn = undefined;
  };
  const restoreOriginal = (exchange: RuntimeExchange): void => {
    if (exchange.original === undefined) return;
    exchange.body = exchange.original.body;
    exchange.headers = { ...exchange.original.headers };
  };

  const dispose = (
    exchange: RuntimeExchange,
    clause: Clause | undefined,
    resume: () => void | Promise<void>,
  ): void | Promise<void> => {
    const error = exchange.error!;
    if (clause === undefined) {
      if (deadLetter === undefined) {
        exchange.exhaustedIn = routeId;
        return;
      }
      const failure = exchange.failure;
      if (handler.useOriginalMessage === true) restoreOriginal(exchange);
      exchange.properties[EXCEPTION_CAUGHT] = error;
      exchange.headers["routekit.exception"] = `${error.name}: ${error.message}`;
      exchange.headers["routekit.failedRouteId"] = failure?.routeId ?? routeId;
      if (failure !== undefined) exchange.headers["routekit.failedStep"] = failure.step;
      clear(exchange);
      return settle(deadLetter.send(exchange), exchange, () => {
        if (exchange.error === undefined) exchange.haltedIn = routeId;
        else exchange.exhaustedIn = routeId;
      });
    }
    const definition = clause.definition;
    if (definition.useOriginalMessage === true) restoreOriginal(exchange);
    exchange.properties[EXCEPTION_CAUGHT] = error;
    const handled = clause.handled?.(exchange) === true;
    const continued = !handled && clause.continued?.(exchange) === true;
    const failure = exchange.failure;
    clear(exchange);
    const finish = (): void | Promise<void> => {
      if (exchange.error !== undefined) {
        // The clause's own steps failed: that error propagates, unhandled.
        exchange.exhaustedIn = routeId;
        return;
      }
      if (continued) return resume();
      if (handled) {
        exchange.haltedIn = routeId;
        return;
      }
      exchange.error = error;
      exchange.failure = failure;
      exchange.exhaustedIn = routeId;
    };
    if (clause.steps === undefined) return finish();
    return settle(clause.steps(exchange), exchange, finish);
  };

  return (exchange, label, again, resume) => {
    const fromSubRoute = exchange.exhaustedIn !== undefined;
    const clause = match(scopes, exchange);
    const options: RedeliveryOptions = clause?.definition ?? handler;
    const retryWhile = clause === undefined ? handlerRetryWhile : clause.retryWhile;
    const maximum = options.maximumRedeliveries ?? 0;
    const attempt = exchange.redeliveryStep === label ? exchange.redeliveries + 1 : 1;
    const mayRetry =
      !fromSubRoute &&
      !exchange.signal.aborted &&
      (maximum === -1 || attempt <= maximum || (retryWhile !== undefined && maximum === 0)) &&
      (retryWhile === undefined || retryWhile(exchange));
    if (!mayRetry) return dispose(exchange, clause, resume);
    exchange.redeliveryStep = label;
    exchange.redeliveries = attempt;
    const delayMs = delayFor(options, attempt);
    const error = exchange.error!;
    if (context.events.has("exchange-redelivered")) {
      context.events.emit("exchange-redelivered", { exchange, routeId, attempt, delayMs, error });
    }
    exchange.headers[REDELIVERY_COUNTER] = attempt;
    exchange.headers[REDELIVERED] = true;
    return sleep(delayMs, exchange.signal).then(
      () => {
        clear(exchange);
        return again();
      },
      (abort: unknown) => {
        exchange.error = abort instanceof Error ? abort : error;
        exchange.exhaustedIn = routeId;
      },
    );
  };
}

/** Runs `then` after a processor's result, synchronously when it completed synchronously. */
function settle(
  result: void | Promise<void>,
  exchange: RuntimeExchange,
  then: () => void | Promise<void>,
): void | Promise<void> {
  if (result === undefined) return then();
  return result.then(then, (error: unknown) => {
    runtime(exchange).error = error instanceof Error ? error : new Error(String(error));
    return then();
  });
}
