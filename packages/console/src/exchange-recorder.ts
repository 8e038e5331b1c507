import type { Exchange } from "@routekit/core";
import { headerRedactor, messageOf, wireBodyOf } from "@routekit/core/internal";
import type { ResolvedConsoleOptions } from "./console-options.js";
import type { ExchangeRecord, PartRun, StepRun } from "./exchange-record.js";
import type { StepEnd, StepListener, StepStart } from "./recording-switch.js";
import { RingBuffer } from "./ring-buffer.js";
import { outcomeOf, streamResult } from "./run-outcome.js";
import { snapshotMessage } from "./snapshot.js";
import type { StatsRegistry, StepStats } from "./step-stats.js";

const TOOL_CALL_ID_HEADER = "llm.tool.call_id";
/** How often the recording allowance is topped up. */
const REFILL_MS = 100;

/** A step that started and has not ended yet, innermost last. */
interface OpenStep {
  readonly stats: StepStats;
  readonly run: StepRun | undefined;
  readonly started: number;
}

/** A record while it runs: the exchange it follows (a recorded one, or one of its parts). */
interface LiveRecord {
  /** The recorded exchange the timeline belongs to (its start time, its step budget). */
  readonly record: ExchangeRecord;
  /** Set when this exchange is a split part or multicast copy nested in `record`. */
  readonly part: PartRun | undefined;
  exchange: Exchange | undefined;
  readonly open: OpenStep[];
  lastEnd: number;
  /** Per route: when its current visit started and last ended (its duration); unused for parts. */
  readonly visits: Map<string, { start: number; end: number }>;
  /** Parts made by this exchange's steps, still followed, with the step run that made each. */
  readonly parts: Array<{ readonly live: LiveRecord; readonly madeBy: StepRun }>;
}

/** The error's text, with the credentials the exchange's headers carry and those of URLs redacted. */
function errorText(error: unknown, exchange: Exchange, redacted: ReadonlySet<string>): string {
  const text = messageOf(error);
  return headerRedactor(exchange.headers, redacted)(text);
}

/**
 * Step counters and exchange timelines from the core's step events, at most `recordPerSecond` new
 * timelines per second, the most recent kept in a ring. The `RecordingSwitch` subscribes it only
 * while the console records.
 */
export class ExchangeRecorder implements StepListener {
  /** New records allowed before the next top-up. */
  tokens: number;
  readonly records: RingBuffer<ExchangeRecord>;
  readonly #records = new Map<string, ExchangeRecord>();
  readonly #live = new WeakMap<Exchange, LiveRecord>();
  /** Parts past `partsPerStep`: counted once, then left alone. */
  readonly #dropped = new WeakSet<Exchange>();
  /** The followed exchanges by id, so a part finds the exchange it was made from. */
  readonly #liveById = new Map<string, LiveRecord>();
  readonly #options: ResolvedConsoleOptions;
  readonly #registry: StatsRegistry;
  readonly #changed: () => void;
  #refill: ReturnType<typeof setInterval> | undefined;
  readonly #toFinish = new Set<LiveRecord>();
  #finishing: ReturnType<typeof setImmediate> | undefined;

  constructor(options: ResolvedConsoleOptions, registry: StatsRegistry, changed: () => void) {
    this.#options = options;
    this.#registry = registry;
    this.#changed = changed;
    this.tokens = this.#perRefill();
    this.records = new RingBuffer(options.exchanges);
  }

  #perRefill(): number {
    return Math.ceil((this.#options.recordPerSecond * REFILL_MS) / 1000);
  }

  /** Recording begins: the allowance is topped up every REFILL_MS while it lasts. */
  begin(): void {
    this.tokens = this.#perRefill();
    clearInterval(this.#refill);
    this.#refill = setInterval(() => {
      this.tokens = this.#perRefill();
    }, REFILL_MS);
    this.#refill.unref();
  }

  /** Recording ends: the top-ups stop, and records still running are closed as they are. */
  end(): void {
    clearInterval(this.#refill);
    if (this.#finishing !== undefined) clearImmediate(this.#finishing);
    this.#refill = undefined;
    this.#finishing = undefined;
    this.#toFinish.clear();
    for (const live of [...this.#liveById.values()]) if (live.part === undefined) this.#finish(live);
  }

  get(id: string): ExchangeRecord | undefined {
    return this.#records.get(id);
  }

  started(event: StepStart): void {
    const stats = this.#registry.step(event.routeId, event.stepPath);
    if (stats === undefined) return;
    stats.calls++;
    const exchange = event.exchange;
    const live = this.#live.get(exchange) ?? this.#follow(exchange, stats);
    if (live === undefined) return;
    const started = performance.now();
    const record = live.record;
    if (live.part === undefined && stats.topLevel) {
      const visit = live.visits.get(stats.routeId);
      if (visit === undefined || stats.index === 0) {
        if (visit !== undefined) this.#routeDurations(stats.routeId, visit.end - visit.start);
        live.visits.set(stats.routeId, { start: started, end: started });
      }
    }
    const timeline = live.part ?? record;
    let run: StepRun | undefined;
    if (record.keptSteps < this.#options.stepsPerExchange) {
      run = {
        routeId: stats.routeId,
        path: stats.path,
        label: stats.label,
        startMs: started - record.startTime,
        durationMs: undefined,
        status: "running",
        error: undefined,
        after: undefined,
        parts: undefined,
        droppedParts: 0,
      };
      timeline.steps.push(run);
      record.keptSteps++;
    } else {
      timeline.droppedSteps++;
      if (live.part !== undefined) record.droppedSteps++;
    }
    live.open.push({ stats, run, started });
  }

  ended(event: StepEnd, error: Error | undefined): void {
    const stats = this.#registry.step(event.routeId, event.stepPath);
    if (stats === undefined) return;
    stats.ended++;
    stats.durations.add(event.durationMs);
    if (error !== undefined) stats.failures++;
    const live = this.#live.get(event.exchange);
    if (live === undefined) return;
    let at = live.open.length - 1;
    while (at >= 0 && live.open[at]!.stats !== stats) at--;
    // A step that started before recording did (or before this exchange was followed).
    if (at < 0) return;
    const [open] = live.open.splice(at, 1) as [OpenStep];
    const ended = performance.now();
    live.lastEnd = ended;
    if (live.part === undefined && stats.topLevel) {
      const visit = live.visits.get(stats.routeId);
      if (visit !== undefined) visit.end = ended;
    }
    const run = open.run;
    if (run !== undefined) {
      run.durationMs = event.durationMs;
      run.status = error === undefined ? "completed" : "failed";
      run.error =
        error === undefined ? undefined : errorText(error, event.exchange, this.#options.redactHeaders);
      run.after = this.#snapshot(event.exchange);
      // The parts this step made are done with it.
      if (run.parts !== undefined) this.#finishParts(live, run);
    }
    const part = live.part;
    if (part !== undefined) {
      if (error !== undefined && part.status === "running") {
        part.status = "failed";
        part.error = errorText(error, event.exchange, this.#options.redactHeaders);
      }
      return;
    }
    if (live.open.length !== 0) return;
    const record = live.record;
    // The last step of the route the exchange entered ended well: the exchange is done. Else
    // (an error the route may still handle, a filter that ended the route early) it is done
    // once no step started again by the next turn of the event loop.
    if (error === undefined && stats.routeId === record.routeId && this.#isLastStep(stats))
      this.#finish(live);
    else {
      this.#toFinish.add(live);
      this.#finishing ??= setImmediate(() => this.#finishPending());
    }
  }

  /** Starts following `exchange`: a part of a followed one, or a new record when `stats` is an entry. */
  #follow(exchange: Exchange, stats: StepStats): LiveRecord | undefined {
    const parentId = exchange.parentId;
    if (parentId !== undefined) return this.#followPart(exchange, parentId);
    if (!stats.topLevel || stats.index !== 0 || this.tokens <= 0) return undefined;
    this.tokens--;
    const headers = exchange.headers;
    const callId = headers[TOOL_CALL_ID_HEADER];
    const record: ExchangeRecord = {
      id: exchange.id,
      routeId: stats.routeId,
      startedAt: Date.now(),
      startTime: performance.now(),
      durationMs: undefined,
      status: "running",
      error: undefined,
      input: this.#snapshot(exchange),
      output: undefined,
      steps: [],
      keptSteps: 0,
      droppedSteps: 0,
      toolCallId: typeof callId === "string" ? callId : undefined,
    };
    const dropped = this.records.push(record);
    if (dropped !== undefined) this.#records.delete(dropped.id);
    this.#records.set(record.id, record);
    this.#changed();
    return this.#track(exchange, record, undefined);
  }

  /** A split part or multicast copy of a followed exchange, nested under the step that made it. */
  #followPart(exchange: Exchange, parentId: string): LiveRecord | undefined {
    const parent = this.#liveById.get(parentId);
    if (parent === undefined) return undefined;
    let madeBy: StepRun | undefined;
    for (let at = parent.open.length - 1; at >= 0 && madeBy === undefined; at--)
      madeBy = parent.open[at]!.run;
    if (madeBy === undefined) return undefined;
    madeBy.parts ??= [];
    if (madeBy.parts.length >= this.#options.partsPerStep) {
      if (!this.#dropped.has(exchange)) madeBy.droppedParts++;
      this.#dropped.add(exchange);
      return undefined;
    }
    const record = parent.record;
    const part: PartRun = {
      exchangeId: exchange.id,
      startMs: performance.now() - record.startTime,
      durationMs: undefined,
      status: "running",
      error: undefined,
      steps: [],
      droppedSteps: 0,
    };
    madeBy.parts.push(part);
    const live = this.#track(exchange, record, part);
    parent.parts.push({ live, madeBy });
    return live;
  }

  #track(exchange: Exchange, record: ExchangeRecord, part: PartRun | undefined): LiveRecord {
    const live: LiveRecord = {
      record,
      part,
      exchange,
      open: [],
      lastEnd: performance.now(),
      visits: new Map(),
      parts: [],
    };
    this.#live.set(exchange, live);
    this.#liveById.set(exchange.id, live);
    return live;
  }

  #snapshot(exchange: Exchange) {
    const options = this.#options;
    // A body still in its wire form is shown as its bytes: the console never decodes one (which
    // could fail, and would cost a route that only moves messages its decode).
    const wire = wireBodyOf(exchange);
    const body = wire === undefined ? exchange.body : wire.content;
    const snapshot = snapshotMessage(body, exchange.headers, options.snapshotChars, options.redactHeaders);
    if (wire === undefined) return snapshot;
    return {
      ...snapshot,
      bodyType: `${snapshot.bodyType}, not decoded yet (${wire.contentType ?? "no content type"})`,
    };
  }

  #routeDurations(routeId: string, durationMs: number): void {
    this.#registry.routes.get(routeId)?.durations.add(durationMs);
  }

  #isLastStep(stats: StepStats): boolean {
    if (!stats.topLevel) return false;
    const steps = this.#registry.routes.get(stats.routeId)?.topLevel() ?? [];
    return steps[steps.length - 1] === stats;
  }

  /** Records whose steps all ended and did not start again by now are finished. */
  #finishPending(): void {
    this.#finishing = undefined;
    for (const live of this.#toFinish) if (live.open.length === 0) this.#finish(live);
    this.#toFinish.clear();
  }

  /** Closes the parts `madeBy` made (all of them when undefined): they are no longer followed. */
  #finishParts(live: LiveRecord, madeBy: StepRun | undefined): void {
    const parts = live.parts;
    for (let at = parts.length - 1; at >= 0; at--) {
      const { live: child, madeBy: run } = parts[at]!;
      if (madeBy !== undefined && run !== madeBy) continue;
      parts.splice(at, 1);
      this.#finishParts(child, undefined);
      const part = child.part!;
      if (part.status === "running" && child.open.length === 0) part.status = "completed";
      part.durationMs = child.lastEnd - child.record.startTime - part.startMs;
      this.#forget(child);
    }
  }

  #forget(live: LiveRecord): void {
    const exchange = live.exchange;
    if (exchange === undefined) return;
    // The exchange is no longer held: a later step on it (a redelivery) is not recorded.
    live.exchange = undefined;
    this.#live.delete(exchange);
    this.#liveById.delete(exchange.id);
  }

  #finish(live: LiveRecord): void {
    const record = live.record;
    const exchange = live.exchange;
    if (exchange === undefined) return;
    this.#finishParts(live, undefined);
    const error = exchange.error;
    for (const [routeId, visit] of live.visits) this.#routeDurations(routeId, visit.end - visit.start);
    live.visits.clear();
    this.#forget(live);
    const stream = error === undefined ? streamResult(exchange.body) : undefined;
    if (stream === undefined) {
      this.#close(record, exchange, error, live.lastEnd);
      return;
    }
    // The reply streams on after the route: the exchange runs until its stream ends.
    stream.then(
      () => this.#close(record, exchange, undefined, performance.now()),
      (streamError: unknown) => this.#close(record, exchange, streamError, performance.now()),
    );
  }

  #close(record: ExchangeRecord, exchange: Exchange, error: unknown, end: number): void {
    record.status = outcomeOf(error, exchange.signal);
    record.error = error === undefined ? undefined : errorText(error, exchange, this.#options.redactHeaders);
    record.durationMs = end - record.startTime;
    record.output = this.#snapshot(exchange);
    this.#changed();
  }
}
