/**
 * How long past its `timeoutMs` a stop may take: aborted work gets part of it to end, stop hooks
 * (components, plugins) get the rest to close connections. `stop` settles within
 * `timeoutMs + STOP_GRACE_MS`, whatever components and plugins do.
 */
export const STOP_GRACE_MS = 2_000;

/** Stop hooks are told to give up this long before the stop's end, to leave time to destroy sockets. */
const HOOK_MARGIN_MS = 250;

/** The time of one stop: until its timeout, and until its end (timeout plus grace). */
export class StopClock {
  readonly timeoutMs: number;
  readonly #started = performance.now();
  #end: { controller: AbortController; timer: NodeJS.Timeout } | undefined;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
  }

  /** Milliseconds left until the stop's timeout (never negative). */
  untilTimeout(): number {
    return Math.max(0, this.#started + this.timeoutMs - performance.now());
  }

  /** Milliseconds left until the stop must settle (never negative). */
  untilEnd(): number {
    return Math.max(0, this.#started + this.timeoutMs + STOP_GRACE_MS - performance.now());
  }

  /** A signal that fires just before the stop's time (timeout plus grace) is up. */
  endSignal(): AbortSignal {
    if (this.#end === undefined) {
      const controller = new AbortController();
      const delay = Math.max(0, this.untilEnd() - HOOK_MARGIN_MS);
      const timer = setTimeout(() => controller.abort(this.#expired()), delay);
      timer.unref();
      this.#end = { controller, timer };
    }
    return this.#end.controller.signal;
  }

  /**
   * True when `work` (a step's result: a promise, or nothing when it finished synchronously)
   * settled within `ms`; a rejection counts as settled. Never rejects.
   */
  async within(work: unknown, ms: number): Promise<boolean> {
    if (!(work instanceof Promise)) return true;
    return (await this.settledWithin(work.then(noop, noop), ms)) !== "late";
  }

  /** `work`'s value when it settles within `ms`, else "late"; `work` must not reject. */
  settledWithin<TValue>(work: Promise<TValue>, ms: number): Promise<TValue | "late"> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve("late"), ms);
      timer.unref();
      work.then((value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
  }

  dispose(): void {
    if (this.#end !== undefined) clearTimeout(this.#end.timer);
  }

  #expired(): DOMException {
    return new DOMException(
      `The stop's time is up (timeoutMs ${this.timeoutMs} plus ${STOP_GRACE_MS} ms grace)`,
      "TimeoutError",
    );
  }
}

function noop(): void {}
