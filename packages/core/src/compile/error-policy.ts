import { isRetryable, messageOf, RoutekitError } from "../errors/errors.js";
import type { RuntimeExchange } from "../exchange/runtime-exchange.js";
import { restoreWireBody } from "../exchange/wire-exchange.js";
import { compilePredicate } from "../expressions/index.js";
import type { Processor } from "../model/exchange.js";
import {
  type ErrorHandlerDefinition,
  type ErrorHandlingDefinition,
  type OnExceptionDefinition,
  type PredicateInput,
  REDELIVERY_OPTION_NAMES,
  type RedeliveryOptions,
  type RouteDefinition,
  type StepDefinition,
} from "../model/route-definition.js";
import { copyRecord } from "../support/copy-record.js";
import { headerRedactor, redactHeaders } from "../support/redact-headers.js";
import { sleep } from "../support/sleep.js";
import type { CompileContext } from "./compile-context.js";
import type { FailurePolicy } from "./pipeline.js";

/** Header names the error handler sets; visible to steps and expressions. */
export const REDELIVERY_COUNTER = "routekit.redeliveryCounter";
export const REDELIVERED = "routekit.redelivered";
/** Property holding the error while onException steps run (`${exception.message}` reads it). */
export const EXCEPTION_CAUGHT = "routekit.exceptionCaught";

/** Exchanges being sent to a dead letter endpoint right now. */
const deadLettering = new WeakSet<RuntimeExchange>();

/** A policy that handles nothing: the failure propagates to the caller. */
export function givingUp(routeId: string): FailurePolicy {
  return (exchange) => {
    exchange.exhaustedIn = routeId;
  };
}

interface Clause {
  readonly definition: OnExceptionDefinition;
  /** The clause's redelivery options, completed from the error handler's (Camel inherits them too). */
  readonly redelivery: RedeliveryOptions;
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
function match(
  scopes: readonly (readonly Clause[])[],
  exchange: RuntimeExchange,
  error: Error,
): Clause | undefined {
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

/** The delay before redelivery number `attempt` (1-based): exponential backoff, capped. */
export function redeliveryDelayFor(options: RedeliveryOptions, attempt: number): number {
  const base = options.redeliveryDelay ?? 1000;
  const multiplier = options.backOffMultiplier ?? (options.useExponentialBackOff === true ? 2 : 1);
  return Math.min(base * multiplier ** (attempt - 1), options.maximumRedeliveryDelay ?? 60_000);
}

/** `own`'s redelivery options, each missing one taken from `inherited`. */
function inherit(own: RedeliveryOptions, inherited: RedeliveryOptions): RedeliveryOptions {
  const result: Record<string, unknown> = {};
  for (const key of REDELIVERY_OPTION_NAMES) {
    const value = own[key] ?? inherited[key];
    if (value !== undefined) result[key] = value;
  }
  return result as RedeliveryOptions;
}

/**
 * Builds a route's failure policy from its error handling (route-local first, then builder-wide):
 * redelivery at the failing step, then the matched clause's disposition (handled, continued, its
 * steps) or the error handler's dead letter channel; otherwise the error goes back to the caller.
 */
export function createFailurePolicy(
  route: RouteDefinition,
  builder: ErrorHandlingDefinition,
  context: CompileContext,
  compileClause: (steps: readonly StepDefinition[], label: string) => Processor,
): FailurePolicy {
  const handler: ErrorHandlerDefinition = route.errorHandling.errorHandler ?? builder.errorHandler ?? {};
  const handlerRetryWhile =
    handler.retryWhile === undefined ? undefined : compilePredicate(handler.retryWhile);
  const scopes = [
    compileClauses(route.errorHandling.onException, "route ", handler, compileClause),
    compileClauses(builder.onException, "", handler, compileClause),
  ];
  const deadLetter =
    handler.deadLetterUri === undefined ? undefined : context.endpoint(handler.deadLetterUri);
  if (
    scopes[0]!.length === 0 &&
    scopes[1]!.length === 0 &&
    deadLetter === undefined &&
    (handler.maximumRedeliveries ?? 0) === 0 &&
    handlerRetryWhile === undefined
  ) {
    return givingUp(route.id);
  }
  const policy: PolicyParts = {
    routeId: route.id,
    handler,
    handlerRetryWhile,
    scopes,
    deadLetter: deadLetter?.send,
    events: context.events,
  };
  return (exchange, _label, attempt, again, resume) =>
    redeliverOrDispose(policy, exchange, attempt, again, resume);
}

/** What a route's failure policy decides with, gathered once when the route is compiled. */
interface PolicyParts {
  readonly routeId: string;
  readonly handler: ErrorHandlerDefinition;
  readonly handlerRetryWhile: ((exchange: RuntimeExchange) => boolean) | undefined;
  /** Route-local clauses first, then the builder's. */
  readonly scopes: readonly (readonly Clause[])[];
  /** Sends to the dead letter endpoint, when the error handler names one. */
  readonly deadLetter: Processor | undefined;
  readonly events: CompileContext["events"];
}

/** Compiles the onException clauses of one scope (the route's, or the builder's). */
function compileClauses(
  definitions: readonly OnExceptionDefinition[],
  scope: string,
  handler: ErrorHandlerDefinition,
  compileClause: (steps: readonly StepDefinition[], label: string) => Processor,
): Clause[] {
  return definitions.map((definition, index) => {
    const redelivery = inherit(definition, handler);
    return {
      definition,
      redelivery,
      steps:
        definition.steps === undefined || definition.steps.length === 0
          ? undefined
          : compileClause(definition.steps, `onException[${scope}${index}]`),
      onWhen: definition.onWhen === undefined ? undefined : compilePredicate(definition.onWhen),
      handled: flag(definition.handled),
      continued: flag(definition.continued),
      retryWhile: redelivery.retryWhile === undefined ? undefined : compilePredicate(redelivery.retryWhile),
    };
  });
}

/** Redelivers the failed exchange at the failing step when its options allow, or disposes of it. */
function redeliverOrDispose(
  policy: PolicyParts,
  exchange: RuntimeExchange,
  attempt: number,
  again: () => void | Promise<void>,
  resume: () => void | Promise<void>,
): void | Promise<void> {
  const error = exchange.error!;
  const routeId = policy.routeId;
  // An error that a called route (direct:) already gave up on is not redelivered here:
  // redelivery happens only in the route where the error was raised.
  const fromSubRoute = exchange.exhaustedIn !== undefined;
  const clause = match(policy.scopes, exchange, error);
  const options = clause === undefined ? policy.handler : clause.redelivery;
  const retryWhile = clause === undefined ? policy.handlerRetryWhile : clause.retryWhile;
  const maximum = options.maximumRedeliveries ?? 0;
  const next = attempt + 1;
  const mayRetry =
    !fromSubRoute &&
    !exchange.signal.aborted &&
    !isDropped(error) &&
    (maximum === -1 || next <= maximum || (retryWhile !== undefined && maximum === 0)) &&
    // A permanent error (retryable: false) is not retried unless the user's retryWhile says so.
    (retryWhile === undefined ? isRetryable(error) : retryWhile(exchange));
  if (!mayRetry) return dispose(policy, exchange, error, clause, resume);
  const delayMs = redeliveryDelayFor(options, next);
  if (policy.events.has("exchange-redelivered")) {
    policy.events.emit("exchange-redelivered", { exchange, routeId, attempt: next, delayMs, error });
  }
  exchange.headers[REDELIVERY_COUNTER] = next;
  exchange.headers[REDELIVERED] = true;
  return sleep(delayMs, exchange.signal).then(
    () => {
      clearFailure(exchange);
      return again();
    },
    (abort: unknown) => {
      // Aborted while waiting (timeout or shutdown): the exchange fails with the abort reason.
      exchange.error = abort instanceof Error ? abort : error;
      exchange.exhaustedIn = routeId;
    },
  );
}

/**
 * What happens to an exchange that will not be redelivered: the matched clause's disposition
 * (handled, continued, its steps), else the dead letter channel, else the error goes back.
 */
function dispose(
  policy: PolicyParts,
  exchange: RuntimeExchange,
  error: Error,
  clause: Clause | undefined,
  resume: () => void | Promise<void>,
): void | Promise<void> {
  const routeId = policy.routeId;
  if (clause === undefined) {
    if (policy.deadLetter === undefined) {
      exchange.exhaustedIn = routeId;
      return;
    }
    return deadLetterChannel(policy, exchange, error, policy.deadLetter);
  }
  const definition = clause.definition;
  if (definition.useOriginalMessage === true) restoreOriginal(exchange);
  const failure = exchange.failure;
  // The clause's steps may dead-letter the message (e.g. to("seda:dead")): the failure's
  // details travel with it, as they do through the dead letter channel.
  recordFailure(exchange, error, failure, routeId);
  const handled = clause.handled?.(exchange) === true;
  const continued = !handled && clause.continued?.(exchange) === true;
  clearFailure(exchange);
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
  const steps = clause.steps;
  if (steps === undefined) return finish();
  return settle(() => steps(exchange), exchange, finish);
}

/** Sends the failed exchange to the dead letter endpoint, its failure recorded and credentials redacted. */
function deadLetterChannel(
  policy: PolicyParts,
  exchange: RuntimeExchange,
  error: Error,
  send: Processor,
): void | Promise<void> {
  const routeId = policy.routeId;
  if (deadLettering.has(exchange)) {
    // Failing while being dead-lettered (e.g. the dead letter route itself failed): never
    // dead-letter again (that could loop forever); the error goes back to the caller.
    exchange.exhaustedIn = routeId;
    return;
  }
  deadLettering.add(exchange);
  const failure = exchange.failure;
  if (policy.handler.useOriginalMessage === true) restoreOriginal(exchange);
  recordFailure(exchange, error, failure, routeId);
  // A dead letter is kept (a queue, a store): the credentials its headers carry are not.
  exchange.headers = redactHeaders(exchange.headers);
  clearFailure(exchange);
  return settle(
    () => send(exchange),
    exchange,
    () => {
      deadLettering.delete(exchange);
      // Delivered: the exchange counts as handled. A failing dead letter endpoint is not
      // swallowed: its error goes back to the caller, so the message is never lost silently.
      if (exchange.error === undefined) exchange.haltedIn = routeId;
      else exchange.exhaustedIn = routeId;
    },
  );
}

/** Clears an exchange's failure before it is redelivered or handed to a clause or dead letter. */
function clearFailure(exchange: RuntimeExchange): void {
  exchange.error = undefined;
  exchange.failure = undefined;
  exchange.exhaustedIn = undefined;
}

/** Puts back the message as it entered the route (`useOriginalMessage`). */
function restoreOriginal(exchange: RuntimeExchange): void {
  if (exchange.original === undefined) return;
  const { body, wire } = exchange.original;
  if (wire === undefined) exchange.body = body;
  else restoreWireBody(exchange, wire);
  exchange.headers = copyRecord(exchange.original.headers);
}

/** A message dropped at shutdown is never redelivered: the route will not run again. */
function isDropped(error: Error): boolean {
  return error instanceof RoutekitError && error.code === "EXCHANGE_DROPPED";
}

/** Runs `then` after `run`'s result, synchronously when it completed synchronously. */
function settle(
  run: () => void | Promise<void>,
  exchange: RuntimeExchange,
  then: () => void | Promise<void>,
): void | Promise<void> {
  let result: void | Promise<void>;
  try {
    result = run();
  } catch (error) {
    exchange.error = error instanceof Error ? error : new Error(String(error));
    return then();
  }
  if (result === undefined) return then();
  return result.then(then, (error: unknown) => {
    exchange.error = error instanceof Error ? error : new Error(String(error));
    return then();
  });
}

/**
 * Puts a failure on the exchange for whatever handles it: the error in the EXCEPTION_CAUGHT
 * property, and its description, route and step in headers that travel with the message (to a
 * dead letter queue on a broker too).
 */
function recordFailure(
  exchange: RuntimeExchange,
  error: Error,
  failure: RuntimeExchange["failure"],
  routeId: string,
): void {
  exchange.properties[EXCEPTION_CAUGHT] = error;
  exchange.headers["routekit.exception"] = headerRedactor(exchange.headers)(messageOf(error));
  exchange.headers["routekit.failedRouteId"] = failure?.routeId ?? routeId;
  if (failure !== undefined) exchange.headers["routekit.failedStep"] = failure.step;
}
