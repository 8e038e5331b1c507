import type { ComponentContext } from "../../components/component-context.js";
import { RoutekitError, toError } from "../../errors/errors.js";
import {
  type PartOrigin,
  type RuntimeExchange,
  runtime,
  snapshotOf,
} from "../../exchange/runtime-exchange.js";
import type { Exchange } from "../../model/exchange.js";
import { describeValue } from "../../support/describe-value.js";
import type { AggregationStrategy } from "../aggregation/aggregation-strategies.js";
import type { PartSource, Pulled } from "./part-source.js";

/** What a fan-out (split, multicast, recipientList) does with each item. */
export interface FanOutPlan {
  readonly routeId: string;
  /** The label of the step, e.g. `#2 split`. */
  readonly label: string;
  /** Parts in flight at most; 1 = sequential. */
  readonly limit: number;
  readonly stopOnError: boolean;
  readonly aggregate: AggregationStrategy | undefined;
  /** The verb's name for the result in error messages (`split`). */
  readonly verb: string;
  /** Creates the exchange for item `index` of `run` (a part or a copy of `run.original`). */
  prepare(run: FanOutRun, item: unknown, index: number, last: boolean): Exchange;
  /**
   * Adds a part's own properties (e.g. `split.index`) when a part made with `partOf(run, ...)`
   * first reads its properties; `size` is the number of items when known up front.
   */
  partProperties?(
    properties: Record<string, unknown>,
    index: number,
    last: boolean,
    size: number | undefined,
  ): void;
  /** Runs one part's exchange. */
  process(part: Exchange, item: unknown, index: number): void | Promise<void>;
  /** Names a part in failure locations: `part 3`, `mock:a`. */
  name(item: unknown, index: number): string;
}

/** A part that was started. */
export interface StartedPart {
  readonly exchange: RuntimeExchange;
  readonly item: unknown;
  readonly index: number;
  readonly result: void | Promise<void>;
}

/** A part that completed synchronously, in the one object a sequential run refills for each. */
export interface PartSlot {
  exchange: RuntimeExchange;
  item: unknown;
  index: number;
  readonly result: undefined;
}

/** The slot a sequential run refills for parts that complete synchronously and need settling. */
export function partSlot(): PartSlot {
  return { exchange: undefined as never, item: undefined, index: 0, result: undefined };
}

/** Whether a signal fired, as the one listener `abortFlagOf` adds to it records it. */
interface AbortFlag {
  aborted: boolean;
}

const ABORTED: AbortFlag = { aborted: true };
const abortFlags = new WeakMap<AbortSignal, AbortFlag>();

/**
 * The flag of a long-lived signal (a context's shutdown signal, which every exchange without a
 * deadline of its own shares): one abort listener, added by the first run under it, sets it. A
 * run reads this plain field before each part; Node's `aborted` getter is a call that cost about a
 * tenth of a split part where many kinds of signal pass through it.
 */
function abortFlagOf(signal: AbortSignal): AbortFlag {
  let flag = abortFlags.get(signal);
  if (flag === undefined) {
    const created = { aborted: signal.aborted };
    if (!created.aborted) {
      signal.addEventListener(
        "abort",
        () => {
          created.aborted = true;
        },
        { once: true },
      );
    }
    abortFlags.set(signal, created);
    flag = created;
  }
  return flag;
}

function isExchange(value: unknown): value is Exchange {
  return (
    typeof value === "object" &&
    value !== null &&
    "body" in value &&
    typeof (value as Exchange).headers === "object"
  );
}

/**
 * The state of one fan-out over one exchange: parts started, the aggregate so far, the first
 * failure. It is also the origin its parts are made from (`partOf(run, ...)`).
 */
export class FanOutRun implements PartOrigin {
  readonly plan: FanOutPlan;
  readonly original: RuntimeExchange;
  readonly source: PartSource;
  exhausted = false;
  stopping = false;
  /** Parts started so far: the index of the next part. */
  started = 0;
  lent = false;
  endedHeaders: Exchange["headers"] | undefined = undefined;
  endedProperties: Record<string, unknown> | undefined = undefined;
  #aggregated: Exchange | undefined = undefined;
  #failure: { error: Error; part: StartedPart | undefined } | undefined = undefined;
  /** The original's signal, read once: parts share it. */
  readonly #signal: AbortSignal;
  /**
   * Set once the signal fires when it is the context's shutdown signal (or fired before the run),
   * else undefined and the signal itself is asked before each part.
   */
  readonly #abort: AbortFlag | undefined;

  constructor(plan: FanOutPlan, original: Exchange, source: PartSource) {
    this.plan = plan;
    this.original = runtime(original);
    this.source = source;
    const signal = original.signal;
    this.#signal = signal;
    // An abort during the run happens in a part: the signal's listeners, the flag's among them,
    // have all run before the part returns and the next part is considered.
    if (signal.aborted) this.#abort = ABORTED;
    else if (signal === (original.context as Partial<ComponentContext>).shutdownSignal) {
      this.#abort = abortFlagOf(signal);
    } else this.#abort = undefined;
  }

  addPartProperties(properties: Record<string, unknown>, index: number, last: boolean): void {
    this.plan.partProperties?.(properties, index, last, this.source.size);
  }

  /** False once the run stops (a failure with stopOnError, an aggregation error, an abort). */
  canStart(): boolean {
    if (this.stopping) return false;
    const abort = this.#abort;
    if (abort === undefined ? this.#signal.aborted : abort.aborted) this.fail(this.#signal.reason);
    return !this.stopping;
  }

  /** Starts the part for a pulled item. */
  start(pulled: Pulled & { done: false }): StartedPart {
    const index = this.started;
    const item = pulled.value;
    const exchange = this.partFor(item, pulled.last);
    return { exchange, item, index, result: this.runPart(exchange, item, index) };
  }

  /** The exchange of the next part, for `item` (its index is `started` before the call). */
  partFor(item: unknown, last: boolean): RuntimeExchange {
    return runtime(this.plan.prepare(this, item, this.started++, last));
  }

  /**
   * Runs a part's exchange: undefined when it completed synchronously (its outcome is on the
   * exchange), else a promise that resolves, never rejects, once it finished.
   */
  runPart(exchange: RuntimeExchange, item: unknown, index: number): Promise<void> | undefined {
    let result: Promise<void> | undefined;
    try {
      result = this.plan.process(exchange, item, index) as Promise<void> | undefined;
    } catch (error) {
      exchange.error = toError(error);
      return undefined;
    }
    if (result === undefined) return undefined;
    return result.then(undefined, (error: unknown) => {
      exchange.error ??= toError(error);
    });
  }

  /** A part finished (completion order); false when the run must stop. */
  finished(part: StartedPart): boolean {
    if (part.exchange.error === undefined || !this.plan.stopOnError) return true;
    this.#failure ??= { error: part.exchange.error, part: { ...part } };
    this.stopping = true;
    return false;
  }

  /** Aggregates a finished part (index order); false when the run must stop. */
  collect(part: StartedPart): boolean {
    const error = part.exchange.error;
    if (error !== undefined) {
      this.#failure ??= { error, part: { ...part } };
      return true;
    }
    const aggregate = this.plan.aggregate;
    if (aggregate === undefined || this.#failure !== undefined) return true;
    let result: unknown;
    try {
      result = aggregate(this.#aggregated, part.exchange);
    } catch (caught) {
      this.fail(caught);
      return false;
    }
    if (!isExchange(result)) {
      this.fail(
        new RoutekitError(
          "STEP_FAILED",
          `${this.plan.verb} aggregate strategy must return an exchange (previous or next), found ${describeValue(result)}`,
        ),
      );
      return false;
    }
    this.#aggregated = result;
    return true;
  }

  fail(error: unknown): void {
    this.#failure ??= { error: toError(error), part: undefined };
    this.stopping = true;
  }

  /** Ends the run: the original gets the first failure, or the aggregate's body and headers. */
  finish(): void {
    if (!this.exhausted) this.source.close();
    const original = this.original;
    // Parts that never read their headers or properties copy these later, not what the steps
    // after this one make of the original's.
    if (this.lent) {
      this.endedHeaders = snapshotOf(original, false);
      this.endedProperties = snapshotOf(original, true);
    }
    const failure = this.#failure;
    if (failure !== undefined) {
      original.error = failure.error;
      if (failure.part !== undefined) this.#locate(failure.part);
      return;
    }
    const aggregated = this.#aggregated;
    if (aggregated !== undefined) {
      original.body = aggregated.body;
      original.headers = aggregated.headers;
    }
  }

  /** Names the failed part in the failure location (`#2 split [part 3] > #1 process`). */
  #locate(part: StartedPart): void {
    const { routeId, label } = this.plan;
    const head = `${label} [${this.plan.name(part.item, part.index)}]`;
    const inner = part.exchange.failure;
    let step = head;
    if (inner !== undefined) {
      step =
        inner.routeId === routeId && inner.step.startsWith(`${label} > `)
          ? head + inner.step.slice(label.length)
          : `${head} > route '${inner.routeId}' ${inner.step}`;
    }
    this.original.failure = { routeId, step };
    this.original.exhaustedIn = part.exchange.exhaustedIn;
  }
}
