import type { ToolCall, ToolCallResult } from "../model-types.js";
import { executeToolCall, type ToolCallEnvironment } from "./execute-tool-call.js";
import type { ToolCallPart } from "./stream-parts.js";

/**
 * The tool calls of one model turn, each started as soon as it is complete: while the turn still
 * streams (`start`, from the model's `onToolCall`) or when the turn has ended (`answer`). In
 * parallel they run at once; otherwise one after the other, in the order they became complete.
 * Calls started during the turn see a signal of their own, so that a turn which then fails stops
 * them (`abandon`).
 */
export class TurnCalls {
  readonly #environment: ToolCallEnvironment;
  readonly #iteration: number;
  readonly #parallel: boolean;
  // Made by the first call started: a turn that only answers with text has none.
  #started: Map<ToolCall, Promise<ToolCallResult>> | undefined;
  #last: Promise<unknown> | undefined;
  #controller: AbortController | undefined;
  #turnEnvironment: ToolCallEnvironment | undefined;
  #unlink: (() => void) | undefined;

  constructor(environment: ToolCallEnvironment, iteration: number, parallel: boolean) {
    this.#environment = environment;
    this.#iteration = iteration;
    this.#parallel = parallel;
  }

  /** Starts `call` now (the model is still writing its turn). */
  start(call: ToolCall): void {
    if (this.#started?.has(call)) return;
    this.#turnEnvironment ??= this.#linkedEnvironment();
    // A rejection (an abort) is read by `answer` or `abandon`; this only keeps it from going unseen.
    this.#run(call, this.#turnEnvironment).catch(ignore);
  }

  /**
   * The answers to `calls`, in their order: those not started yet start now; waits for all, or
   * rejects with the run signal's reason as soon as it fires (the calls started here leave that
   * to this race and add no listener each).
   */
  answer(calls: readonly ToolCall[]): Promise<ToolCallResult[]> {
    const pending: Promise<ToolCallResult>[] = [];
    for (const call of calls) pending.push(this.#started?.get(call) ?? this.#run(call, this.#environment));
    const all = Promise.all(pending);
    const signal = this.#environment.signal;
    const answered = signal === undefined ? all : untilAborted(all, signal);
    return this.#unlink === undefined ? answered : answered.finally(() => this.#release());
  }

  /** The turn failed: stops the calls it started and waits until they have settled. */
  async abandon(reason: unknown): Promise<void> {
    if (this.#controller === undefined) return;
    this.#controller.abort(reason);
    await Promise.allSettled(this.#started?.values() ?? []);
    this.#release();
  }

  #run(call: ToolCall, environment: ToolCallEnvironment): Promise<ToolCallResult> {
    const { onPart, includeContent, partContent } = environment;
    if (onPart !== undefined) onPart(toolCallPart(call, this.#iteration, partContent ?? includeContent));
    let result: Promise<ToolCallResult>;
    if (this.#parallel) result = executeToolCall(call, environment, this.#iteration);
    else {
      const previous = this.#last ?? Promise.resolve();
      result = previous.then(() => executeToolCall(call, environment, this.#iteration));
      // A rejection (an abort) is read by `answer` or `abandon`; the chain only orders the calls.
      this.#last = result.catch(ignore);
    }
    this.#started ??= new Map();
    this.#started.set(call, result);
    return result;
  }

  /**
   * The environment of calls started during the turn: the run's signal, or the turn's failure.
   * Each of its calls settles at that signal on its own, so `abandon` does not wait for a tool
   * that ignores it.
   */
  #linkedEnvironment(): ToolCallEnvironment {
    const controller = new AbortController();
    const parent = this.#environment.signal;
    if (parent?.aborted) controller.abort(parent.reason);
    else if (parent !== undefined) {
      const onAbort = (): void => controller.abort(parent.reason);
      parent.addEventListener("abort", onAbort, { once: true });
      this.#unlink = () => parent.removeEventListener("abort", onAbort);
    }
    this.#controller = controller;
    return { ...this.#environment, signal: controller.signal, racedBySignal: false };
  }

  #release(): void {
    this.#unlink?.();
    this.#unlink = undefined;
  }
}

function ignore(): void {}

const ONCE = { once: true };

/** `promise`, or a rejection with the signal's reason as soon as it fires: one listener, removed when settled. */
function untilAborted<TValue>(promise: Promise<TValue>, signal: AbortSignal): Promise<TValue> {
  return new Promise((resolve, reject) => {
    const race = new AbortRace(signal, reject);
    if (signal.aborted) race.handleEvent();
    else signal.addEventListener("abort", race, ONCE);
    promise.then(
      (value) => {
        signal.removeEventListener("abort", race);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", race);
        reject(error);
      },
    );
  });
}

/** The abort listener of `untilAborted` (an object with `handleEvent`, not one more closure). */
class AbortRace {
  readonly #signal: AbortSignal;
  readonly #reject: (reason: unknown) => void;

  constructor(signal: AbortSignal, reject: (reason: unknown) => void) {
    this.#signal = signal;
    this.#reject = reject;
  }

  handleEvent(): void {
    this.#reject(this.#signal.reason);
  }
}

function toolCallPart(call: ToolCall, iteration: number, includeContent: boolean): ToolCallPart {
  const part: ToolCallPart = { type: "tool-call", toolCallId: call.id, toolName: call.name, iteration };
  if (includeContent) part.input = call.arguments ?? parsedOrText(call.argumentsText);
  return part;
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
