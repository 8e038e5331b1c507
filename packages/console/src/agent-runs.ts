import type { Exchange } from "@routekit/core";
import type { EventBus, Processor } from "@routekit/core/internal";
import { messageOf } from "@routekit/core/internal";
// The llm package's root declares its events on RoutekitEvents; importing it (for types only)
// puts those declarations in this program.
import type {} from "@routekit/llm";
import type { LLM_EVENT_TYPES, LlmEventType } from "@routekit/llm/internal";
import type { AgentCall, AgentRun, RouteSpend } from "./agent-run.js";
import type { ResolvedConsoleOptions } from "./console-options.js";
import { RingBuffer } from "./ring-buffer.js";
import { outcomeOf, streamResult } from "./run-outcome.js";
import type { StepStats } from "./step-stats.js";

function errorText(error: unknown): string {
  return messageOf(error);
}

/**
 * What the llm step's events carry that the console reads. Every payload of @routekit/llm's
 * agent-run contract must fit this view (`#listen` passes them in, typed as @routekit/llm declares
 * them; imported type-only), so a change there stops this file at compile time.
 */
interface LlmEvent {
  readonly exchangeId: string;
  readonly routeId: string | undefined;
  readonly iteration: number;
  readonly provider?: string;
  readonly model?: string;
  readonly durationMs?: number;
  readonly usage?: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly cachedInputTokens?: number;
  };
  /** US dollars, when the model has a price (model-call-completed). */
  readonly cost?: number;
  readonly stopReason?: string;
  readonly error?: Error;
  readonly toolName?: string;
  readonly callId?: string;
  readonly arguments?: string;
  readonly output?: string;
  readonly isError?: boolean;
}

/** The contract's event types (`LLM_EVENT_TYPES`), each checked against it; all of them, or the check fails. */
const LLM_EVENTS = [
  "model-call-started",
  "model-call-completed",
  "model-call-failed",
  "tool-call-started",
  "tool-call-completed",
] as const satisfies readonly LlmEventType[] & typeof LLM_EVENT_TYPES;

/**
 * Agent runs from the llm step's events: each run of an llm step becomes a list of model turns
 * and tool calls. The console listens to those events only while an llm step runs, so routes
 * without one never pay for an event listener.
 */
export class AgentRuns {
  readonly runs: RingBuffer<AgentRun>;
  /** Tokens and cost per route id (routes are the context's own: their number is bounded by it). */
  readonly #spend = new Map<string, RouteSpend>();
  readonly #byId = new Map<string, AgentRun>();
  /** Runs in progress, by exchange id. */
  readonly #open = new Map<string, AgentRun>();
  readonly #events: EventBus;
  readonly #options: ResolvedConsoleOptions;
  readonly #changed: () => void;
  #unsubscribe: Array<() => void> = [];
  #sequence = 0;

  constructor(events: EventBus, options: ResolvedConsoleOptions, changed: () => void) {
    this.#events = events;
    this.#options = options;
    this.#changed = changed;
    this.runs = new RingBuffer(options.agentRuns);
  }

  /** What each route's agent runs spent, most expensive first. */
  spendByRoute(): RouteSpend[] {
    return [...this.#spend.values()]
      .map((spend) => ({ ...spend }))
      .sort((left, right) => right.costUsd - left.costUsd || right.inputTokens - left.inputTokens);
  }

  get(id: string): AgentRun | undefined {
    return this.#byId.get(id);
  }

  /** Wraps an llm step: a run opens before it and closes when it (or its stream) ends. */
  around(stats: StepStats, next: Processor): Processor {
    return (exchange: Exchange) => {
      const run = this.#begin(exchange, stats);
      let result: void | Promise<void>;
      try {
        result = next(exchange);
      } catch (error) {
        this.#end(run, error, exchange.signal);
        throw error;
      }
      const settle = (): void => {
        const pending = exchange.error === undefined ? streamResult(exchange.body) : undefined;
        if (pending === undefined) this.#end(run, exchange.error, exchange.signal);
        else
          pending.then(
            () => this.#end(run, undefined),
            (error: unknown) => this.#end(run, error, exchange.signal),
          );
      };
      if (result === undefined) {
        settle();
        return;
      }
      return result.then(settle, (error: unknown) => {
        this.#end(run, error, exchange.signal);
        throw error;
      });
    };
  }

  /** Stops listening (when the context stops); runs still open are closed as they are. */
  stop(): void {
    for (const run of this.#open.values()) this.#end(run, new Error("the context stopped"));
    this.#listen(false);
  }

  #begin(exchange: Exchange, stats: StepStats): AgentRun {
    const run: AgentRun = {
      id: `run-${++this.#sequence}`,
      exchangeId: exchange.id,
      routeId: stats.routeId,
      stepPath: stats.path,
      startedAt: Date.now(),
      startTime: performance.now(),
      durationMs: undefined,
      status: "running",
      error: undefined,
      model: undefined,
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      costUsd: undefined,
      toolCalls: 0,
      calls: [],
      droppedCalls: 0,
    };
    this.#open.set(exchange.id, run);
    this.#spendOf(run).runs++;
    const dropped = this.runs.push(run);
    if (dropped !== undefined) this.#byId.delete(dropped.id);
    this.#byId.set(run.id, run);
    if (this.#open.size === 1) this.#listen(true);
    this.#changed();
    return run;
  }

  #end(run: AgentRun, error: unknown, signal?: AbortSignal): void {
    if (run.status !== "running") return;
    run.status = outcomeOf(error, signal);
    run.error = error === undefined ? undefined : errorText(error);
    run.durationMs = performance.now() - run.startTime;
    if (this.#open.get(run.exchangeId) === run) this.#open.delete(run.exchangeId);
    if (this.#open.size === 0) this.#listen(false);
    this.#changed();
  }

  #listen(on: boolean): void {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
    if (!on) return;
    for (const type of LLM_EVENTS) {
      this.#unsubscribe.push(this.#events.on(type, (event) => this.#onEvent(type, event)));
    }
  }

  #onEvent(type: LlmEventType, event: LlmEvent): void {
    const run = this.#open.get(event.exchangeId);
    if (run === undefined) return;
    if (type === "model-call-started" || type === "tool-call-started") this.#addCall(run, type, event);
    else this.#finishCall(run, type, event);
    this.#changed();
  }

  #addCall(run: AgentRun, type: LlmEventType, event: LlmEvent): void {
    const model = type === "model-call-started";
    if (model) run.model = `${event.provider ?? "?"}/${event.model ?? "?"}`;
    else run.toolCalls++;
    if (run.calls.length >= this.#options.callsPerRun) {
      run.droppedCalls++;
      return;
    }
    const limit = this.#options.snapshotChars;
    const call: AgentCall = {
      kind: model ? "model" : "tool",
      iteration: event.iteration,
      name: model ? (run.model ?? "") : (event.toolName ?? ""),
      callId: event.callId,
      startMs: performance.now() - run.startTime,
      durationMs: undefined,
      status: "running",
      inputTokens: undefined,
      outputTokens: undefined,
      cachedInputTokens: undefined,
      costUsd: undefined,
      stopReason: undefined,
      arguments: event.arguments === undefined ? undefined : event.arguments.slice(0, limit),
      output: undefined,
      error: undefined,
    };
    run.calls.push(call);
  }

  #finishCall(run: AgentRun, type: LlmEventType, event: LlmEvent): void {
    const kind = type === "tool-call-completed" ? "tool" : "model";
    const call = run.calls.find(
      (candidate) =>
        candidate.kind === kind &&
        candidate.status === "running" &&
        (kind === "tool" ? candidate.callId === event.callId : candidate.iteration === event.iteration),
    );
    this.#addSpend(run, event);
    if (call === undefined) return;
    call.durationMs = event.durationMs;
    const failed = type === "model-call-failed" || event.isError === true;
    call.status = failed ? "failed" : "completed";
    call.inputTokens = event.usage?.inputTokens;
    call.outputTokens = event.usage?.outputTokens;
    call.cachedInputTokens = event.usage?.cachedInputTokens;
    call.costUsd = event.cost;
    call.stopReason = event.stopReason;
    call.output = event.output?.slice(0, this.#options.snapshotChars);
    if (event.error !== undefined) call.error = errorText(event.error);
    else if (failed) call.error = call.output ?? "the tool answered with an error";
  }

  /** A finished model call's tokens and cost, added to its run and its route. */
  #addSpend(run: AgentRun, event: LlmEvent): void {
    const usage = event.usage;
    if (usage === undefined) return;
    const route = this.#spendOf(run);
    const cached = usage.cachedInputTokens ?? 0;
    run.inputTokens += usage.inputTokens;
    run.outputTokens += usage.outputTokens;
    run.cachedInputTokens += cached;
    route.inputTokens += usage.inputTokens;
    route.outputTokens += usage.outputTokens;
    route.cachedInputTokens += cached;
    if (event.cost !== undefined) {
      run.costUsd = (run.costUsd ?? 0) + event.cost;
      route.costUsd += event.cost;
    }
  }

  #spendOf(run: AgentRun): RouteSpend {
    const routeId = run.routeId ?? "(no route)";
    let spend = this.#spend.get(routeId);
    if (spend === undefined) {
      spend = { routeId, runs: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, costUsd: 0 };
      this.#spend.set(routeId, spend);
    }
    return spend;
  }
}
