import type { SignalSource } from "@routekit/core/internal";
import type { ToolResult } from "@routekit/llm";
import type { ToolCallContext } from "@routekit/llm/tool";
import type { CallClock } from "./call-clock.js";

/** Why a call's signal fired. */
export type Ending = "timed-out" | "cancelled" | "closing" | "stopping";

/**
 * The one deadline of a call: it fires at the deadline (the server's `CallClock` times it), when
 * the client's signal fires, when the server closes, or when the route context aborts in-flight
 * work (the clock is in the context's shutdown). A tool route runs its exchange under it, so the
 * call has no second deadline; its signal is made only when something reads it (most routes
 * never do). The object is its own listener (no closure per call). It listens to the client's
 * signal only once the call outlives the event-loop turn it started in (the clock's `listen`):
 * a cancellation comes in on a later read of the transport, and most calls are answered before
 * then, so they never pay for adding and removing a listener; a signal that fired in between is
 * seen when the listener would be added. `release` removes the listener and the place on the clock.
 */
export class CallDeadline implements SignalSource {
  #controller: AbortController | undefined = undefined;
  #reason: unknown = undefined;
  readonly #parent: AbortSignal;
  readonly #clock: CallClock;
  /** The calls in flight started just before and just after this one (the clock's list). */
  previous: CallDeadline | undefined = undefined;
  next: CallDeadline | undefined = undefined;
  /** When the call is due, on `performance.now()`'s clock. */
  readonly due: number;
  #settle: ((result: ToolResult | undefined) => void) | undefined = undefined;
  ending: Ending | undefined = undefined;
  /** Listening to the client's signal (see `listen`); false again once released. */
  #listening = false;
  #released = false;

  constructor(parent: AbortSignal, clock: CallClock) {
    this.#parent = parent;
    this.#clock = clock;
    // A context that has already aborted in-flight work ends the call at once.
    this.due = clock.add(this);
  }

  /**
   * Starts listening to the client's signal (the clock calls it after the turn the call started
   * in, if the call still runs); a signal that has already fired ends the call now.
   */
  listen(): void {
    if (this.#released || this.#listening) return;
    if (this.#parent.aborted) {
      this.handleEvent();
      return;
    }
    this.#listening = true;
    this.#parent.addEventListener("abort", this);
  }

  /** The signal the tool sees. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.ending !== undefined) this.#controller.abort(this.#reason);
    }
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
    this.#reason = reason;
    this.release();
    this.#controller?.abort(reason);
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
    this.#released = true;
    if (this.#listening) {
      this.#listening = false;
      this.#parent.removeEventListener("abort", this);
    }
    this.#clock.delete(this);
  }

  /** The client's signal fired. */
  handleEvent(): void {
    this.end("cancelled", this.#parent.reason ?? new Error("cancelled"));
  }
}

/**
 * The call context a tool sees: its id, and the deadline's signal, made on first read (a plain
 * object with a getter, so a tool that spreads it keeps the signal).
 */
export function callContextOf(callId: string, deadline: CallDeadline): ToolCallContext {
  return {
    callId,
    get signal() {
      return deadline.signal;
    },
  };
}

/** A rejected or throwing tool as an error result (a registry's tools never reject; others may). */
export function rejected(error: unknown): ToolResult {
  const failure = error instanceof Error ? error : new Error(String(error));
  return { isError: true, output: failure.message, error: failure };
}
