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
  readonly #started = new Map<ToolCall, Promise<ToolCallResult>>();
  #last: Promise<unknown> = Promise.resolve();
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
    if (this.#started.has(call)) return;
    this.#turnEnvironment ??= this.#linkedEnvironment();
    this.#run(call, this.#turnEnvironment);
  }

  /** The answers to `calls`, in their order: those not started yet start now; waits for all. */
  answer(calls: readonly ToolCall[]): Promise<ToolCallResult[]> {
    for (const call of calls) if (!this.#started.has(call)) this.#run(call, this.#environment);
    const results = Promise.all(calls.map((call) => this.#started.get(call) as Promise<ToolCallResult>));
    return results.finally(() => this.#release());
  }

  /** The turn failed: stops the calls it started and waits until they have settled. */
  async abandon(reason: unknown): Promise<void> {
    if (this.#controller === undefined) return;
    this.#controller.abort(reason);
    await Promise.allSettled(this.#started.values());
    this.#release();
  }

  #run(call: ToolCall, environment: ToolCallEnvironment): void {
    const { onPart, includeContent } = environment;
    if (onPart !== undefined) onPart(toolCallPart(call, this.#iteration, includeContent));
    const result = this.#parallel
      ? executeToolCall(call, environment, this.#iteration)
      : this.#last.then(() => executeToolCall(call, environment, this.#iteration));
    // A rejection (an abort) is read by `answer` or `abandon`; the chain only orders the calls.
    this.#last = result.catch(() => {});
    this.#started.set(call, result);
  }

  /** The environment of calls started during the turn: the run's signal, or the turn's failure. */
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
    return { ...this.#environment, signal: controller.signal };
  }

  #release(): void {
    this.#unlink?.();
    this.#unlink = undefined;
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
