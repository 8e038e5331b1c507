/** What a caller waits for while a connection is being made. */
export interface WaitForConnection<T> {
  /** True once the connection is made or given up. */
  settled(): boolean;
  /** The connected value, or undefined when the connection was given up. */
  value(): T | undefined;
  notConnected(): Error;
  timedOut(): Error;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/** Callers waiting for a connection to be made (or given up), each with a deadline and a signal. */
export class ConnectionWaiters {
  #waiters: Array<() => void> = [];

  /** Tells every waiter the state changed. */
  wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  /** Resolves with the connected value once settled; rejects when given up, timed out or aborted. */
  waitFor<T>(wait: WaitForConnection<T>): Promise<T> {
    const { signal } = wait;
    return new Promise<T>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#waiters = this.#waiters.filter((waiter) => waiter !== onChange);
      };
      const onChange = () => {
        if (!wait.settled()) return;
        finish();
        const value = wait.value();
        if (value !== undefined) resolve(value);
        else reject(wait.notConnected());
      };
      const onAbort = () => {
        finish();
        reject(signal?.reason ?? new Error("aborted"));
      };
      const timer = setTimeout(() => {
        finish();
        reject(wait.timedOut());
      }, wait.timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(onChange);
    });
  }
}
