/**
 * The exchanges a context has in flight or queued, counted (routes and seda count them), and who
 * waits for the count to reach zero (a stop waiting for in-flight work to end).
 */
export class PendingWork {
  #pending = 0;
  #idle: Array<() => void> = [];

  /** Adds `delta` (1 when work starts, -1 when it ends); at zero, wakes whoever waits for idle. */
  track(delta: number): void {
    this.#pending += delta;
    if (this.#pending === 0 && this.#idle.length > 0) {
      const waiters = this.#idle;
      this.#idle = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Resolves when no exchange is in flight or queued. */
  whenIdle(): Promise<void> {
    if (this.#pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
