/** One pulled item and whether it is the last; `done` when the source is exhausted. */
export type Pulled =
  | { readonly done: true }
  | { readonly done: false; readonly value: unknown; readonly last: boolean };

const DONE: Pulled = { done: true };

/**
 * The one item object a synchronous source hands out, refilled on every `next()`: its consumer
 * reads it before pulling again, so no object is allocated per item.
 */
type Slot = { done: false; value: unknown; last: boolean };

function fill(slot: Slot, value: unknown, last: boolean): Slot {
  slot.value = value;
  slot.last = last;
  return slot;
}

/**
 * Items pulled one at a time, each with a look-ahead of one so a part knows whether it is the
 * last. Synchronous sources return each item at once, asynchronous ones (`async`) a promise: a
 * fan-out tells them apart once, not per item. What `next()` returns is valid until the next call
 * (synchronous sources reuse one object).
 */
export type PartSource = SyncPartSource | AsyncPartSource;

interface SourceBase {
  /** The number of items when known up front (arrays), else undefined. */
  readonly size: number | undefined;
  /** Releases the source early (runs a generator's `finally`). */
  close(): void;
}

export interface SyncPartSource extends SourceBase {
  readonly async: false;
  next(): Pulled;
}

export interface AsyncPartSource extends SourceBase {
  readonly async: true;
  next(): Promise<Pulled>;
}

class ArraySource implements SyncPartSource {
  readonly async = false;
  readonly size: number;
  readonly #items: readonly unknown[];
  #index = 0;
  readonly #slot: Slot = { done: false, value: undefined, last: false };

  constructor(items: readonly unknown[]) {
    this.#items = items;
    this.size = items.length;
  }

  next(): Pulled {
    const index = this.#index;
    if (index >= this.#items.length) return DONE;
    this.#index = index + 1;
    return fill(this.#slot, this.#items[index], index + 1 === this.#items.length);
  }

  close(): void {
    this.#index = this.#items.length;
  }
}

class IteratorSource implements SyncPartSource {
  readonly async = false;
  readonly size = undefined;
  readonly #iterator: Iterator<unknown>;
  #ahead: IteratorResult<unknown> | undefined;
  #finished = false;
  readonly #slot: Slot = { done: false, value: undefined, last: false };

  constructor(iterator: Iterator<unknown>) {
    this.#iterator = iterator;
  }

  next(): Pulled {
    if (this.#finished) return DONE;
    const current = this.#ahead ?? this.#iterator.next();
    this.#ahead = undefined;
    if (current.done === true) {
      this.#finished = true;
      return DONE;
    }
    const ahead = this.#iterator.next();
    if (ahead.done === true) this.#finished = true;
    else this.#ahead = ahead;
    return fill(this.#slot, current.value, ahead.done === true);
  }

  close(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#iterator.return?.();
  }
}

class AsyncIteratorSource implements AsyncPartSource {
  readonly async = true;
  readonly size = undefined;
  readonly #iterator: AsyncIterator<unknown>;
  #ahead: IteratorResult<unknown> | undefined;
  #finished = false;

  constructor(iterator: AsyncIterator<unknown>) {
    this.#iterator = iterator;
  }

  async next(): Promise<Pulled> {
    if (this.#finished) return DONE;
    const current = this.#ahead ?? (await this.#iterator.next());
    this.#ahead = undefined;
    if (current.done === true) {
      this.#finished = true;
      return DONE;
    }
    const ahead = await this.#iterator.next();
    if (ahead.done === true) this.#finished = true;
    else this.#ahead = ahead;
    return { done: false, value: current.value, last: ahead.done === true };
  }

  close(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#iterator.return?.()?.then(undefined, () => undefined);
  }
}

/** A source over an array (size known, synchronous). */
export function arraySource(items: readonly unknown[]): PartSource {
  return new ArraySource(items);
}

/**
 * The source for a value: arrays (size known), other iterables and async iterables (streamed),
 * null/undefined (no parts), a string (one part). Anything else yields undefined.
 */
export function partSourceOf(value: unknown): PartSource | undefined {
  if (Array.isArray(value)) return new ArraySource(value);
  if (value === null || value === undefined) return new ArraySource([]);
  if (typeof value === "string") return new ArraySource([value]);
  if (typeof value === "object" || typeof value === "function") {
    const candidate = value as Partial<Iterable<unknown> & AsyncIterable<unknown>>;
    const iterate = candidate[Symbol.iterator];
    if (typeof iterate === "function") return new IteratorSource(iterate.call(candidate));
    const iterateAsync = candidate[Symbol.asyncIterator];
    if (typeof iterateAsync === "function") return new AsyncIteratorSource(iterateAsync.call(candidate));
  }
  return undefined;
}
