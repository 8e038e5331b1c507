/**
 * The parts of one run, kept in order so that every reader sees all of them from the first, with
 * the end (or the failure) after the last. Readers wait without polling: `push` and `end` wake them.
 */
export class PartBuffer<TPart> {
  readonly #parts: TPart[] = [];
  #ended = false;
  #failure: { error: unknown } | undefined;
  #waiters: Array<() => void> = [];

  get ended(): boolean {
    return this.#ended;
  }

  push(part: TPart): void {
    this.#parts.push(part);
    this.#wake();
  }

  /** Ends the parts; with `failure`, every reader rejects with its error after the last part. */
  end(failure?: { error: unknown }): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = failure;
    this.#wake();
  }

  /**
   * A reader from the first part. `onEarlyReturn` runs when the reader stops (`return()`,
   * `break` out of `for await`) before the end.
   */
  reader(onEarlyReturn: () => void): AsyncIterator<TPart> {
    let index = 0;
    let closed = false;
    const next = async (): Promise<IteratorResult<TPart>> => {
      for (;;) {
        if (closed) return { done: true, value: undefined };
        if (index < this.#parts.length) return { done: false, value: this.#parts[index++] as TPart };
        if (this.#ended) {
          closed = true;
          if (this.#failure !== undefined) throw this.#failure.error;
          return { done: true, value: undefined };
        }
        await new Promise<void>((resolve) => this.#waiters.push(resolve));
      }
    };
    return {
      next,
      return: async () => {
        if (!closed) {
          closed = true;
          this.#wake();
          if (!this.#ended) onEarlyReturn();
        }
        return { done: true, value: undefined };
      },
    };
  }

  #wake(): void {
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
