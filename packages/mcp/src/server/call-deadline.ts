import type { ToolResult } from "@routekit/llm";
import type { CallClock } from "./call-clock.js";

/** Why a call's signal fired. */
export type Ending = "timed-out" | "cancelled" | "closing";

/**
 * The one signal a call's tool sees: it fires at the deadline (the server's `CallClock` times it),
 * when the client's signal fires, or when the server closes. The object is its own listener (no
 * closure per call), and `release` removes the listener and its entry on the clock.
 */
export class CallDeadline {
  readonly #controller = new AbortController();
  readonly #parent: AbortSignal;
  readonly #clock: CallClock;
  /** When the call is due, on `performance.now()`'s clock. */
  readonly due: number;
  #settle: ((result: ToolResult | undefined) => void) | undefined = undefined;
  ending: Ending | undefined = undefined;

  constructor(parent: AbortSignal, clock: CallClock) {
    this.#parent = parent;
    this.#clock = clock;
    this.due = clock.add(this);
    parent.addEventListener("abort", this, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * What `call` resolves to, or undefined as soon as the call ends (deadline, cancellation, server
   * closing) even if `call` never settles; a rejection becomes an error result.
   */
  race(call: Promise<ToolResult>): Promise<ToolResult | undefined> {
    return new Promise((resolve) => {
      this.#settle = resolve;
      call.then(resolve, (error: unknown) => resolve(rejected(error)));
    });
  }

  end(ending: Ending, reason: unknown): void {
    if (this.ending !== undefined) return;
    this.ending = ending;
    this.release();
    this.#controller.abort(reason);
    this.#settle?.(undefined);
  }

  /** The deadline passed (the clock calls it). */
  timeOut(): void {
    const { timeoutMs } = this.#clock;
    this.end("timed-out", new DOMException(`the deadline of ${timeoutMs} ms passed`, "TimeoutError"));
  }

  /** Ends the call because the server closes: its tool's signal fires, and it answers saying so. */
  close(): void {
    this.end("closing", new Error("the MCP server is closing"));
  }

  release(): void {
    this.#parent.removeEventListener("abort", this);
    this.#clock.delete(this);
  }

  /** The client's signal fired. */
  handleEvent(): void {
    this.end("cancelled", this.#parent.reason ?? new Error("cancelled"));
  }
}

/** A rejected or throwing tool as an error result (a registry's tools never reject; others may). */
export function rejected(error: unknown): ToolResult {
  const failure = error instanceof Error ? error : new Error(String(error));
  return { isError: true, output: failure.message, error: failure };
}
