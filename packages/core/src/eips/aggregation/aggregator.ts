import type { CompileContext } from "../../compile/compile-context.js";
import { messageOf, RoutekitError, toError } from "../../errors/errors.js";
import { copyExchange, runtime } from "../../exchange/runtime-exchange.js";
import type { Exchange, Processor } from "../../model/exchange.js";
import { dropTransientProperties } from "../../runtime/property-keys.js";
import { describeValue } from "../../support/describe-value.js";
import { andThen } from "../fan-out/maybe-async.js";
import {
  AGGREGATE_COMPLETED_BY,
  AGGREGATE_CORRELATION_KEY,
  AGGREGATE_SIZE,
} from "../routing/routing-properties.js";
import type { AggregationRepository } from "./aggregation-repository.js";
import type { AggregationStrategy } from "./aggregation-strategies.js";
import { KeyLock } from "./key-lock.js";

/** Why a group completed. */
export type CompletionReason = "size" | "timeout" | "interval" | "predicate" | "stop";

/** Everything an aggregator needs, checked and compiled. */
export interface AggregatorSettings {
  readonly routeId: string;
  readonly label: string;
  readonly context: CompileContext;
  readonly correlation: (exchange: Exchange) => unknown;
  readonly strategy: AggregationStrategy;
  readonly repository: AggregationRepository;
  readonly completionSize: number | undefined;
  readonly completionTimeout: number | undefined;
  readonly completionInterval: number | undefined;
  readonly completionPredicate: ((exchange: Exchange) => boolean) | undefined;
  readonly eagerCheckCompletion: boolean;
  readonly ignoreInvalidCorrelationKeys: boolean;
  /** The steps after `aggregate`: run once per completed group. */
  readonly rest: Processor;
}

interface Completed {
  readonly key: string;
  readonly aggregated: Exchange;
  readonly reason: CompletionReason;
}

/**
 * The correlation key of an exchange as a string; undefined when it has none and the settings
 * say to drop such exchanges (logged at debug), otherwise a missing key throws.
 */
export function correlationKeyOf(
  settings: Pick<AggregatorSettings, "correlation" | "ignoreInvalidCorrelationKeys" | "context">,
  where: string,
  exchange: Exchange,
): string | undefined {
  const value = settings.correlation(exchange);
  if (
    (typeof value === "string" && value !== "") ||
    (typeof value === "number" && Number.isFinite(value)) ||
    typeof value === "boolean" ||
    typeof value === "bigint"
  ) {
    return String(value);
  }
  const problem = `the correlation expression yielded ${describeValue(value)} for exchange ${exchange.id}`;
  if (settings.ignoreInvalidCorrelationKeys) {
    settings.context.logger.debug(
      `${where}: ${problem}; the message is dropped (ignoreInvalidCorrelationKeys)`,
    );
    return undefined;
  }
  throw new RoutekitError(
    "EXPRESSION_FAILED",
    `${where}: ${problem}; expected a non-empty string or a number (set ignoreInvalidCorrelationKeys to drop such messages)`,
  );
}

/** The exchange a strategy returned, checked: it must be an exchange. */
export function checkAggregated(where: string, aggregated: unknown): Exchange {
  if (
    typeof aggregated !== "object" ||
    aggregated === null ||
    typeof (aggregated as Exchange).properties !== "object"
  ) {
    throw new RoutekitError(
      "STEP_FAILED",
      `${where}: the aggregation strategy must return an exchange (previous or next), found ${describeValue(aggregated)}`,
    );
  }
  return aggregated as Exchange;
}

/**
 * The runtime of one `aggregate` step: groups exchanges by correlation key in the repository,
 * completes groups by size, predicate, inactivity timeout, interval or route stop, and runs each
 * completed group down the rest of the block as a new exchange. Work is serialised per key.
 */
export class Aggregator {
  readonly #settings: AggregatorSettings;
  readonly #where: string;
  readonly #lock = new KeyLock();
  readonly #timeouts = new Map<string, NodeJS.Timeout>();
  readonly #running = new Set<Promise<void>>();
  #interval: NodeJS.Timeout | undefined;

  constructor(settings: AggregatorSettings) {
    this.#settings = settings;
    this.#where = `Route '${settings.routeId}' step ${settings.label}`;
  }

  /** Aggregates an incoming exchange; it is consumed (the rest of the route does not run for it). */
  offer(exchange: Exchange): void | Promise<void> {
    const settings = this.#settings;
    const key = correlationKeyOf(settings, this.#where, exchange);
    const target = runtime(exchange);
    if (key === undefined) {
      target.haltedIn = settings.routeId;
      return;
    }
    const next = copyExchange(exchange);
    dropTransientProperties(next.properties);
    const eager = settings.eagerCheckCompletion && settings.completionPredicate?.(next) === true;
    this.#startInterval();
    const merged = this.#lock.run(key, () => this.#merge(key, next, eager));
    return andThen(merged, (completed) => {
      target.haltedIn = settings.routeId;
      return completed === undefined ? undefined : this.#emit(completed);
    });
  }

  /** Completes every open group (route stop) and waits for their processing and any in progress. */
  async stop(): Promise<void> {
    if (this.#interval !== undefined) clearInterval(this.#interval);
    this.#interval = undefined;
    for (const timer of this.#timeouts.values()) clearTimeout(timer);
    this.#timeouts.clear();
    await this.#completeAll("stop");
    await Promise.all(this.#running);
  }

  #merge(
    key: string,
    next: Exchange,
    eager: boolean,
  ): Completed | undefined | Promise<Completed | undefined> {
    const { repository, strategy } = this.#settings;
    return andThen(repository.get(key), (previous) => {
      const group = checkAggregated(this.#where, strategy(previous, next));
      const before = previous?.properties[AGGREGATE_SIZE];
      const size = (typeof before === "number" ? before : previous === undefined ? 0 : 1) + 1;
      group.properties[AGGREGATE_SIZE] = size;
      group.properties[AGGREGATE_CORRELATION_KEY] = key;
      const reason = eager ? "predicate" : this.#completedBy(group, size);
      if (reason === undefined) {
        return andThen(repository.put(key, group), () => {
          this.#restartTimeout(key);
          return undefined;
        });
      }
      this.#clearTimeout(key);
      const completed: Completed = { key, aggregated: group, reason };
      return previous === undefined ? completed : andThen(repository.remove(key), () => completed);
    });
  }

  #completedBy(group: Exchange, size: number): CompletionReason | undefined {
    const { completionPredicate, completionSize, eagerCheckCompletion } = this.#settings;
    if (!eagerCheckCompletion && completionPredicate?.(group) === true) return "predicate";
    if (completionSize !== undefined && size >= completionSize) return "size";
    return undefined;
  }

  /** Removes and returns the group for `key` (called under the key's lock). */
  #take(key: string, reason: CompletionReason): Completed | undefined | Promise<Completed | undefined> {
    const repository = this.#settings.repository;
    return andThen(repository.get(key), (aggregated) =>
      aggregated === undefined
        ? undefined
        : andThen(repository.remove(key), () => ({ key, aggregated, reason })),
    );
  }

  #restartTimeout(key: string): void {
    const delay = this.#settings.completionTimeout;
    if (delay === undefined) return;
    this.#clearTimeout(key);
    const timer: NodeJS.Timeout = setTimeout(() => {
      this.#background(() =>
        andThen(
          this.#lock.run(key, () => {
            // A newer message restarted the timer, or the group completed otherwise.
            if (this.#timeouts.get(key) !== timer) return undefined;
            this.#timeouts.delete(key);
            return this.#take(key, "timeout");
          }),
          (completed) => (completed === undefined ? undefined : this.#emit(completed)),
        ),
      );
    }, delay);
    timer.unref();
    this.#timeouts.set(key, timer);
  }

  #clearTimeout(key: string): void {
    const timer = this.#timeouts.get(key);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#timeouts.delete(key);
  }

  #startInterval(): void {
    const period = this.#settings.completionInterval;
    if (period === undefined || this.#interval !== undefined) return;
    this.#interval = setInterval(() => this.#background(() => this.#completeAll("interval")), period);
    this.#interval.unref();
  }

  #completeAll(reason: CompletionReason): void | Promise<void> {
    return andThen(this.#settings.repository.keys(), (keys) => {
      const pending: Promise<void>[] = [];
      for (const key of [...keys]) {
        const result = andThen(
          this.#lock.run(key, () => {
            this.#clearTimeout(key);
            return this.#take(key, reason);
          }),
          (completed) => (completed === undefined ? undefined : this.#emit(completed)),
        );
        if (result !== undefined) pending.push(result);
      }
      if (pending.length > 0) return Promise.all(pending).then(() => undefined);
    });
  }

  /** Runs a completed group down the rest of the block as a new InOnly exchange; never rejects. */
  #emit(completed: Completed): void | Promise<void> {
    const { context, rest, routeId } = this.#settings;
    const { aggregated, reason } = completed;
    const exchange = context.createExchange({
      body: aggregated.body,
      headers: aggregated.headers,
      properties: aggregated.properties,
      pattern: "InOnly",
    });
    exchange.properties[AGGREGATE_COMPLETED_BY] = reason;
    const target = runtime(exchange);
    target.routeId = routeId;
    target.fromEndpoint = aggregated.fromEndpoint;
    context.trackPending(1);
    let result: Promise<void> | undefined;
    try {
      result = rest(exchange) as Promise<void> | undefined;
    } catch (error) {
      exchange.error = toError(error);
    }
    if (result === undefined) return this.#emitted(exchange, completed);
    return result.then(
      () => this.#emitted(exchange, completed),
      (error: unknown) => {
        exchange.error ??= toError(error);
        this.#emitted(exchange, completed);
      },
    );
  }

  #emitted(exchange: Exchange, completed: Completed): void {
    const { context } = this.#settings;
    context.trackPending(-1);
    if (exchange.error !== undefined) {
      context.logger.error(
        `${this.#where}: the aggregated exchange ${exchange.id} (correlation key '${completed.key}', completed by ${completed.reason}) failed: ${messageOf(exchange.error)}`,
      );
    }
  }

  /** Timer-driven work: counted as pending for graceful stop; failures are logged. */
  #background(work: () => void | Promise<void>): void {
    const { context } = this.#settings;
    const report = (error: unknown): void =>
      context.logger.error(`${this.#where}: completing aggregation groups failed: ${messageOf(error)}`);
    context.trackPending(1);
    let result: Promise<void> | undefined;
    try {
      result = work() as Promise<void> | undefined;
    } catch (error) {
      report(error);
    }
    if (result === undefined) {
      context.trackPending(-1);
      return;
    }
    const tracked: Promise<void> = result.then(undefined, report).finally(() => {
      context.trackPending(-1);
      this.#running.delete(tracked);
    });
    this.#running.add(tracked);
  }
}
