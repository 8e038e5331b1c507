import type * as Crypto from "node:crypto";
import { messageOf, RoutekitError, toError } from "../../errors/errors.js";
import { copyExchange, runtime } from "../../exchange/runtime-exchange.js";
import type { Exchange } from "../../model/exchange.js";
import { dropTransientProperties } from "../../runtime/property-keys.js";
import { copyRecord } from "../../support/copy-record.js";
import { describeValue } from "../../support/describe-value.js";
import { lazyModule } from "../../support/lazy-module.js";
import { redactHeaders } from "../../support/redact-headers.js";
import {
  AGGREGATE_COMPLETED_BY,
  AGGREGATE_CORRELATION_KEY,
  AGGREGATE_SIZE,
} from "../routing/routing-properties.js";
import type {
  SharedAggregationRepository,
  SharedGroupWrite,
  StoredExchange,
} from "./aggregation-repository.js";
import {
  type AggregatorSettings,
  type CompletionReason,
  checkAggregated,
  correlationKeyOf,
} from "./aggregator.js";
import { KeyLock } from "./key-lock.js";

/** node:crypto, loaded by the first shared aggregation (importing core does not load it). */
const crypto = lazyModule<typeof Crypto>("node:crypto", import.meta.url);

/** Property naming the completion a group's exchange came from (shared repositories): the same on every recovery. */
export const AGGREGATE_COMPLETION_ID = "aggregate.completionId";
/** Property counting how many times recovery handed the group out before this run (0 the first time). */
export const AGGREGATE_RECOVERY_ATTEMPTS = "aggregate.recoveryAttempts";

/** How often an instance tries again when other instances keep changing a group first. */
const MAXIMUM_WRITE_ATTEMPTS = 50;
/** How many groups one background pass handles. */
const BATCH = 100;

/** An aggregator's settings when its repository is shared between processes. */
export interface SharedAggregatorSettings extends Omit<AggregatorSettings, "repository"> {
  readonly repository: SharedAggregationRepository;
  readonly partId: ((exchange: Exchange) => unknown) | undefined;
  readonly recoveryInterval: number;
  readonly maximumRedeliveries: number;
  readonly deadLetterUri: string | undefined;
  readonly completionTimeoutCheckInterval: number;
}

interface Completion {
  readonly id: string;
  readonly key: string;
  readonly exchange: StoredExchange;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The runtime of an `aggregate` step over a repository that several processes share. Each part
 * is merged against the version it read and written only if nobody wrote in between (else read
 * and merged again), so parts split between instances all land in one group. Completing moves the
 * group into the repository's completed set atomically, so one instance completes it; processing
 * it confirms it. Background passes (started with the context) complete timed-out groups of any
 * instance and recover completed groups nobody confirmed. Stopping leaves open groups in the store
 * for the other instances.
 */
export class SharedAggregator {
  readonly #settings: SharedAggregatorSettings;
  readonly #where: string;
  readonly #lock = new KeyLock();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #running = new Set<Promise<void>>();
  #started = false;

  constructor(settings: SharedAggregatorSettings) {
    this.#settings = settings;
    this.#where = `Route '${settings.routeId}' step ${settings.label}`;
  }

  /** Adds an incoming exchange to its group; it is consumed once the group is stored. */
  offer(exchange: Exchange): void | Promise<void> {
    const settings = this.#settings;
    const key = correlationKeyOf(settings, this.#where, exchange);
    const target = runtime(exchange);
    if (key === undefined) {
      target.haltedIn = settings.routeId;
      return;
    }
    const partId = this.#partIdOf(exchange);
    const next = copyExchange(exchange);
    dropTransientProperties(next.properties);
    const eager = settings.eagerCheckCompletion && settings.completionPredicate?.(next) === true;
    this.start();
    return Promise.resolve(this.#lock.run(key, () => this.#add(key, next, partId, eager))).then(
      (completion) => {
        target.haltedIn = settings.routeId;
        return completion === undefined ? undefined : this.#process(completion, 0);
      },
    );
  }

  /** Starts the background passes (idempotent; the context's start calls it). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    const { completionTimeout, completionInterval, completionTimeoutCheckInterval, recoveryInterval } =
      this.#settings;
    this.#every(recoveryInterval, () => this.#recover());
    if (completionTimeout !== undefined) {
      this.#every(completionTimeoutCheckInterval, () => this.#completeExpired());
    }
    if (completionInterval !== undefined) this.#every(completionInterval, () => this.#completeOpen());
  }

  /** Stops the background passes and waits for work in progress; open groups stay in the store. */
  async stop(): Promise<void> {
    this.#started = false;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.all(this.#running);
  }

  #partIdOf(exchange: Exchange): string | undefined {
    if (this.#settings.partId === undefined) return undefined;
    const value = this.#settings.partId(exchange);
    if (
      (typeof value === "string" && value !== "") ||
      (typeof value === "number" && Number.isFinite(value))
    ) {
      return String(value);
    }
    throw new RoutekitError(
      "EXPRESSION_FAILED",
      `${this.#where}: option 'partId' yielded ${describeValue(value)} for exchange ${exchange.id}; expected a non-empty string or a number`,
    );
  }

  async #add(
    key: string,
    next: Exchange,
    partId: string | undefined,
    eager: boolean,
  ): Promise<Completion | undefined> {
    const { repository, strategy, completionTimeout, context } = this.#settings;
    for (let attempt = 1; ; attempt++) {
      const group = await repository.read(key);
      if (partId !== undefined && group?.partIds.includes(partId) === true) {
        context.logger.debug(
          `${this.#where}: part '${partId}' is already in group '${key}'; not added again`,
        );
        return undefined;
      }
      const open = group?.exchange;
      const partIds = open === undefined || group === undefined ? [] : [...group.partIds];
      if (partId !== undefined) partIds.push(partId);
      const previous = open === undefined ? undefined : this.#exchangeOf(open);
      const merged = checkAggregated(this.#where, strategy(previous, copyExchange(next)));
      const before = previous?.properties[AGGREGATE_SIZE];
      const size = (typeof before === "number" ? before : previous === undefined ? 0 : 1) + 1;
      merged.properties[AGGREGATE_SIZE] = size;
      merged.properties[AGGREGATE_CORRELATION_KEY] = key;
      const reason = eager ? "predicate" : this.#completedBy(merged, size);
      if (reason !== undefined) merged.properties[AGGREGATE_COMPLETED_BY] = reason;
      const write: SharedGroupWrite = {
        version: group?.version,
        exchange: { body: merged.body, headers: merged.headers, properties: merged.properties },
        partIds,
        timeoutAt:
          reason === undefined && completionTimeout !== undefined
            ? Date.now() + completionTimeout
            : undefined,
      };
      if (reason === undefined) {
        if (await repository.write(key, write)) return undefined;
      } else {
        const id = crypto().randomUUID();
        if (await repository.complete(key, id, write)) return { id, key, exchange: write.exchange };
      }
      if (attempt >= MAXIMUM_WRITE_ATTEMPTS) {
        throw new RoutekitError(
          "STEP_FAILED",
          `${this.#where}: gave up adding exchange ${next.id} to group '${key}' after ${attempt} attempts: another instance changed the group before each write`,
        );
      }
      await pause(Math.random() * Math.min(100, attempt * 5));
    }
  }

  #completedBy(group: Exchange, size: number): CompletionReason | undefined {
    const { completionPredicate, completionSize, eagerCheckCompletion } = this.#settings;
    if (!eagerCheckCompletion && completionPredicate?.(group) === true) return "predicate";
    if (completionSize !== undefined && size >= completionSize) return "size";
    return undefined;
  }

  #exchangeOf(stored: StoredExchange): Exchange {
    return this.#settings.context.createExchange({
      body: stored.body,
      headers: copyRecord(stored.headers),
      properties: copyRecord(stored.properties),
      pattern: "InOnly",
    });
  }

  /** Runs a completed group down the rest of the block; confirms it when that succeeded. Never rejects. */
  async #process(completion: Completion, attempts: number): Promise<void> {
    const { context, rest, routeId, repository, recoveryInterval } = this.#settings;
    const exchange = this.#exchangeOf(completion.exchange);
    exchange.properties[AGGREGATE_COMPLETION_ID] = completion.id;
    exchange.properties[AGGREGATE_RECOVERY_ATTEMPTS] = attempts;
    runtime(exchange).routeId = routeId;
    context.trackPending(1);
    try {
      await rest(exchange);
    } catch (error) {
      exchange.error ??= toError(error);
    } finally {
      context.trackPending(-1);
    }
    const described = `the aggregated exchange of group '${completion.key}' (completion ${completion.id}${attempts > 0 ? `, recovery attempt ${attempts}` : ""})`;
    if (exchange.error !== undefined) {
      context.logger.error(
        `${this.#where}: ${described} failed: ${messageOf(exchange.error)}; it stays in the repository and is recovered after ${recoveryInterval} ms`,
      );
      return;
    }
    try {
      await repository.confirm(completion.id);
    } catch (error) {
      context.logger.error(
        `${this.#where}: ${described} was processed but could not be confirmed (${messageOf(error)}); recovery will process it again`,
      );
    }
  }

  async #recover(): Promise<void> {
    const { repository, maximumRedeliveries, deadLetterUri, context, recoveryInterval } = this.#settings;
    const groups = await repository.recover(recoveryInterval, BATCH);
    for (const group of groups) {
      if (deadLetterUri !== undefined && group.attempts > maximumRedeliveries) {
        await context.send(deadLetterUri, group.exchange.body, redactHeaders(group.exchange.headers));
        await repository.confirm(group.id);
        context.logger.warn(
          `${this.#where}: group '${group.key}' (completion ${group.id}) failed ${maximumRedeliveries} recovery attempts; moved to '${deadLetterUri}'`,
        );
        continue;
      }
      await this.#process({ id: group.id, key: group.key, exchange: group.exchange }, group.attempts);
    }
  }

  async #completeExpired(): Promise<void> {
    const keys = await this.#settings.repository.expired(Date.now(), BATCH);
    await Promise.all(keys.map((key) => this.#completeGroup(key, "timeout")));
  }

  async #completeOpen(): Promise<void> {
    const keys = await this.#settings.repository.keys();
    await Promise.all(keys.map((key) => this.#completeGroup(key, "interval")));
  }

  async #completeGroup(key: string, reason: CompletionReason): Promise<void> {
    const repository = this.#settings.repository;
    const completion = await this.#lock.run(key, async (): Promise<Completion | undefined> => {
      const group = await repository.read(key);
      if (group?.exchange === undefined) return undefined;
      if (reason === "timeout" && (group.timeoutAt === undefined || group.timeoutAt > Date.now()))
        return undefined;
      const properties = copyRecord(group.exchange.properties);
      properties[AGGREGATE_COMPLETED_BY] = reason;
      const exchange: StoredExchange = { ...group.exchange, properties };
      const id = crypto().randomUUID();
      const write = { version: group.version, exchange, partIds: group.partIds, timeoutAt: undefined };
      return (await repository.complete(key, id, write)) ? { id, key, exchange } : undefined;
    });
    if (completion !== undefined) await this.#process(completion, 0);
  }

  /** Runs `work` every `period` ms (the next run is scheduled when one ends); failures are logged. */
  #every(period: number, work: () => Promise<void>): void {
    const { context, routeId } = this.#settings;
    const schedule = (): void => {
      if (!this.#started) return;
      const timer: NodeJS.Timeout = setTimeout(() => {
        this.#timers.delete(timer);
        const route = context.routes().find((candidate) => candidate.id === routeId);
        if (route === undefined) {
          void this.stop();
          return;
        }
        if (context.state !== "started" || route.state !== "started") {
          schedule();
          return;
        }
        const running: Promise<void> = work()
          .catch((error: unknown) =>
            context.logger.error(
              `${this.#where}: background pass over the shared repository failed: ${messageOf(error)}`,
            ),
          )
          .finally(() => {
            this.#running.delete(running);
            schedule();
          });
        this.#running.add(running);
      }, period);
      timer.unref();
      this.#timers.add(timer);
    };
    schedule();
  }
}
