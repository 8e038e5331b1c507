import { RoutekitError } from "../errors.js";

interface WaitingProducer<T> {
  item: T;
  resolve(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * A bounded FIFO with backpressure: `offer` completes synchronously while there is room and
 * returns a promise that waits for room (optionally bounded) when full; `take` waits for items.
 */
export class BoundedQueue<T> {
  readonly capacity: number;
  #items: T[] = [];
  #head = 0;
  #takers: Array<(item: T | undefined) => void> = [];
  #producers: WaitingProducer<T>[] = [];

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  /** True when accepted now; false when full (the caller decides: wait, discard or fail). */
  tryOffer(item: T): boolean {
    const taker = this.#takers.shift();
    if (taker !== undefined) {
      taker(item);
      return true;
    }
    if (this.size >= this.capacity) return false;
    this.#items.push(item);
    return true;
  }

  /** Waits for room; rejects with QUEUE_FULL after `timeoutMs` (0 = wait as long as it takes). */
  offerWhenRoom(item: T, timeoutMs: number, name: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting: WaitingProducer<T> = { item, resolve, reject, timer: undefined };
      if (timeoutMs > 0) {
        waiting.timer = setTimeout(() => {
          const index = this.#producers.indexOf(waiting);
          if (index !== -1) this.#producers.splice(index, 1);
          reject(
            new RoutekitError(
              "QUEUE_FULL",
              `Queue '${name}' stayed full (capacity ${this.capacity}) for ${timeoutMs} ms (offerTimeout)`,
            ),
          );
        }, timeoutMs);
      }
      this.#producers.push(waiting);
    });
  }

  /** The next item now, or undefined when empty. */
  poll(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head] as T;
    this.#items[this.#head] = undefined as T;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    this.#admitProducer();
    return item;
  }

  /** Waits for the next item; resolves undefined when `release()` is called. */
  take(): Promise<T | undefined> {
    const item = this.poll();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => this.#takers.push(resolve));
  }

  /** Wakes every waiting taker with undefined (used at stop). */
  release(): void {
    const takers = this.#takers;
    this.#takers = [];
    for (const taker of takers) taker(undefined);
  }

  #admitProducer(): void {
    const producer = this.#producers.shift();
    if (producer === undefined) return;
    if (producer.timer !== undefined) clearTimeout(producer.timer);
    this.#items.push(producer.item);
    producer.resolve();
  }
}
