/** One exchange waiting for its turn. */
interface Waiter {
  readonly resolve: () => void;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
}

/**
 * A first-in first-out line of waiting exchanges. A waiter whose signal aborts leaves the line
 * and its promise rejects with the abort reason.
 */
export class WaitLine {
  readonly #waiters: Waiter[] = [];

  get length(): number {
    return this.#waiters.length;
  }

  /** Joins the line; resolves when `grant()` reaches this waiter. */
  add(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        signal,
        onAbort: () => {
          const index = this.#waiters.indexOf(waiter);
          if (index >= 0) this.#waiters.splice(index, 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener("abort", waiter.onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** Lets the first waiter go; false when nobody waits. */
  grant(): boolean {
    const waiter = this.#waiters.shift();
    if (waiter === undefined) return false;
    waiter.signal.removeEventListener("abort", waiter.onAbort);
    waiter.resolve();
    return true;
  }
}
