import type { CallDeadline } from "./call-deadline.js";

/**
 * The deadlines of one server's calls in flight, on one timer. Every call of a server has the same
 * `toolTimeoutMs`, so the calls' deadlines come in the order the calls started: the timer only
 * ever waits for the oldest call, and a call costs a set entry instead of a timer of its own. The
 * timer is unref'd (it never keeps a process alive) and, once every call has finished, fires once
 * more, finds nothing due, and is not armed again; `stop` clears it.
 */
export class CallClock {
  readonly timeoutMs: number;
  /** The calls in flight, oldest first. */
  readonly #running = new Set<CallDeadline>();
  #timer: NodeJS.Timeout | undefined = undefined;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
  }

  /** Starts timing `deadline`; returns when it is due, on `performance.now()`'s clock. */
  add(deadline: CallDeadline): number {
    this.#running.add(deadline);
    if (this.#timer === undefined) this.#arm(this.timeoutMs);
    return performance.now() + this.timeoutMs;
  }

  delete(deadline: CallDeadline): void {
    this.#running.delete(deadline);
  }

  /** The calls in flight now, oldest first. */
  running(): CallDeadline[] {
    return [...this.#running];
  }

  /** Clears the timer (the server is closed: no call is left to time). */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Ends every call that is due (each leaves the set as it ends), then waits for the next one. */
  tick(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (const deadline of this.#running) {
      if (deadline.due > now) {
        this.#arm(Math.ceil(deadline.due - now));
        return;
      }
      deadline.timeOut();
    }
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(tickClock, delayMs, this);
    this.#timer.unref();
  }
}

function tickClock(clock: CallClock): void {
  clock.tick();
}
