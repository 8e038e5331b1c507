import type { Exchange, Processor } from "@routekit/core";
import type { ResolvedConsoleOptions } from "./console-options.js";
import type { ExchangeRecord, StepRun } from "./exchange-record.js";
import { RingBuffer } from "./ring-buffer.js";
import { snapshotMessage } from "./snapshot.js";
import type { RouteStats, StepStats } from "./step-stats.js";

const TOOL_CALL_ID_HEADER = "llm.tool.call_id";
/** How often the recording allowance is topped up. */
const REFILL_MS = 100;

/** A record while it runs: the exchange it follows and the route visits being timed. */
interface LiveRecord {
  readonly record: ExchangeRecord;
  exchange: Exchange | undefined;
  stepsInFlight: number;
  lastEnd: number;
  /** Per route: when its current visit started and last ended (its duration). */
  readonly visits: Map<string, { start: number; end: number }>;
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Records exchanges as timelines of their steps, at most `recordPerSecond` new ones per second;
 * keeps the most recent in a ring. Exchanges not being recorded cost a field read per step.
 */
export class ExchangeRecorder {
  /** Records not finished yet: while 0, steps skip the lookup of their exchange's record. */
  active = 0;
  /** New records allowed before the next top-up. */
  tokens: number;
  readonly records: RingBuffer<ExchangeRecord>;
  readonly #byId = new Map<string, ExchangeRecord>();
  readonly #live = new WeakMap<Exchange, LiveRecord>();
  readonly #options: ResolvedConsoleOptions;
  readonly #routes: (routeId: string) => RouteStats | undefined;
  readonly #changed: () => void;
  #refill: ReturnType<typeof setInterval> | undefined;
  readonly #toFinish = new Set<LiveRecord>();
  #finishing: ReturnType<typeof setImmediate> | undefined;

  constructor(
    options: ResolvedConsoleOptions,
    routes: (routeId: string) => RouteStats | undefined,
    changed: () => void,
  ) {
    this.#options = options;
    this.#routes = routes;
    this.#changed = changed;
    this.tokens = this.#perRefill();
    this.records = new RingBuffer(options.exchanges);
  }

  #perRefill(): number {
    return Math.ceil((this.#options.recordPerSecond * REFILL_MS) / 1000);
  }

  /** Starts topping up the allowance (when the context starts). */
  start(): void {
    if (this.#refill !== undefined) return;
    this.#refill = setInterval(() => {
      this.tokens = this.#perRefill();
    }, REFILL_MS);
    this.#refill.unref();
  }

  /** Stops the top-ups and the pending finishing work; records still running stay as they are. */
  stop(): void {
    if (this.#refill !== undefined) clearInterval(this.#refill);
    if (this.#finishing !== undefined) clearImmediate(this.#finishing);
    this.#refill = undefined;
    this.#finishing = undefined;
    for (const live of this.#toFinish) this.#finish(live);
    this.#toFinish.clear();
  }

  get(id: string): ExchangeRecord | undefined {
    return this.#byId.get(id);
  }

  /** The live record of `exchange`, or a new one when `entry` and the allowance has room. */
  liveRecord(exchange: Exchange, entry: boolean, routeId: string): LiveRecord | undefined {
    const live = this.#live.get(exchange);
    if (live !== undefined || !entry || this.tokens <= 0) return live;
    this.tokens--;
    const options = this.#options;
    const headers = exchange.headers;
    const callId = headers[TOOL_CALL_ID_HEADER];
    const record: ExchangeRecord = {
      id: exchange.id,
      routeId,
      startedAt: Date.now(),
      startTime: performance.now(),
      durationMs: undefined,
      status: "running",
      error: undefined,
      input: snapshotMessage(exchange.body, headers, options.snapshotChars, options.redactHeaders),
      output: undefined,
      steps: [],
      droppedSteps: 0,
      toolCallId: typeof callId === "string" ? callId : undefined,
    };
    const created: LiveRecord = {
      record,
      exchange,
      stepsInFlight: 0,
      lastEnd: record.startTime,
      visits: new Map(),
    };
    this.#live.set(exchange, created);
    this.active++;
    const dropped = this.records.push(record);
    if (dropped !== undefined) this.#byId.delete(dropped.id);
    this.#byId.set(record.id, record);
    this.#changed();
    return created;
  }

  /** Runs one step of a recorded exchange, timing it and keeping a snapshot of what it left. */
  runStep(live: LiveRecord, stats: StepStats, exchange: Exchange, next: Processor): void | Promise<void> {
    stats.calls++;
    live.stepsInFlight++;
    const started = performance.now();
    const record = live.record;
    if (stats.topLevel) {
      const visit = live.visits.get(stats.routeId);
      if (visit === undefined || stats.index === 0) {
        if (visit !== undefined) this.#routes(stats.routeId)?.durations.add(visit.end - visit.start);
        live.visits.set(stats.routeId, { start: started, end: started });
      }
    }
    let run: StepRun | undefined;
    if (record.steps.length < this.#options.stepsPerExchange) {
      run = {
        routeId: stats.routeId,
        path: stats.path,
        label: stats.label,
        startMs: started - record.startTime,
        durationMs: undefined,
        status: "running",
        error: undefined,
        after: undefined,
      };
      record.steps.push(run);
    } else record.droppedSteps++;
    const end = (error: unknown): void => {
      const ended = performance.now();
      stats.ended++;
      stats.durations.add(ended - started);
      if (error !== undefined) stats.failures++;
      if (stats.topLevel) {
        const visit = live.visits.get(stats.routeId);
        if (visit !== undefined) visit.end = ended;
      }
      if (run !== undefined) {
        run.durationMs = ended - started;
        run.status = error === undefined ? "completed" : "failed";
        run.error = error === undefined ? undefined : errorText(error);
        const options = this.#options;
        run.after = snapshotMessage(
          exchange.body,
          exchange.headers,
          options.snapshotChars,
          options.redactHeaders,
        );
      }
      live.lastEnd = ended;
      if (--live.stepsInFlight !== 0) return;
      // The last step of the route the exchange entered ended well: the exchange is done. Else
      // (an error the route may still handle, a filter that ended the route early) it is done
      // once no step started again by the next turn of the event loop.
      if (error === undefined && stats.routeId === record.routeId && this.#isLastStep(stats))
        this.#finish(live);
      else {
        this.#toFinish.add(live);
        this.#finishing ??= setImmediate(() => this.#finishPending());
      }
    };
    let result: void | Promise<void>;
    try {
      result = next(exchange);
    } catch (error) {
      end(error);
      throw error;
    }
    if (result === undefined) {
      end(exchange.error);
      return;
    }
    return result.then(
      () => end(exchange.error),
      (error: unknown) => {
        end(error);
        throw error;
      },
    );
  }

  #isLastStep(stats: StepStats): boolean {
    if (!stats.topLevel) return false;
    const steps = this.#routes(stats.routeId)?.topLevel() ?? [];
    return steps[steps.length - 1] === stats;
  }

  /** Records whose steps all ended and did not start again by now are finished. */
  #finishPending(): void {
    this.#finishing = undefined;
    for (const live of this.#toFinish) if (live.stepsInFlight === 0) this.#finish(live);
    this.#toFinish.clear();
  }

  #finish(live: LiveRecord): void {
    const record = live.record;
    const exchange = live.exchange;
    if (exchange === undefined) return;
    this.active--;
    const error = exchange.error;
    record.status = error === undefined ? "completed" : "failed";
    record.error = error === undefined ? undefined : errorText(error);
    record.durationMs = live.lastEnd - record.startTime;
    const options = this.#options;
    record.output = snapshotMessage(
      exchange.body,
      exchange.headers,
      options.snapshotChars,
      options.redactHeaders,
    );
    for (const [routeId, visit] of live.visits) this.#routes(routeId)?.durations.add(visit.end - visit.start);
    live.visits.clear();
    // The exchange is no longer held: a later step on it (a redelivery) is not recorded.
    live.exchange = undefined;
    this.#live.delete(exchange);
    this.#changed();
  }
}
