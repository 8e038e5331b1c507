import { RoutekitError } from "../errors/errors.js";

const resolved = Promise.resolve();
/** Runs `task` as a microtask (cheaper than queueMicrotask, which allocates an async resource). */
const schedule = (task: () => void): void => {
  resolved.then(task);
};

interface WaitingProducer<T> {
  item: T;
  resolve(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * A bounded FIFO with backpressure: `tryOffer` completes synchronously while there is room and
 * `offerWhenRoom` waits for room (optionally bounded) when full. Consumers poll, and when the
 * queue is empty register a wake-up that runs as a microtask once an item arrives — no promise
 * per message.
 */
export class BoundedQueue<T> {
  readonly capacity: number;
  #items: T[] = [];
  #head = 0;
  #wakers: Array<() => void> = [];
  #producers: WaitingProducer<T>[] = [];

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  /** True when accepted now; false when full (the caller decides: wait, discard or fail). */
  tryOffer(item: T): boolean {
    if (this.size >= this.capacity) return false;
    this.#items.push(item);
    this.#wakeOne();
    return true;
  }

  #wakeOne(): void {
    const wake = this.#wakers.shift();
    if (wake !== undefined) schedule(wake);
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

  /** Runs `wake` (as a microtask) when an item arrives; one wake-up per registration. */
  whenItem(wake: () => void): void {
    if (this.size > 0) schedule(wake);
    else this.#wakers.push(wake);
  }

  /** Forgets a registered wake-up (used at stop). */
  cancel(wake: () => void): void {
    const index = this.#wakers.indexOf(wake);
    if (index !== -1) this.#wakers.splice(index, 1);
  }

  /** Removes and returns every queued item (used when a stop gives up on them). */
  takeAll(): T[] {
    const items = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    return items;
  }

  /** Rejects every producer waiting for room with `error`; returns how many there were. */
  rejectWaiting(error: Error): number {
    const waiting = this.#producers;
    this.#producers = [];
    for (const producer of waiting) {
      if (producer.timer !== undefined) clearTimeout(producer.timer);
      producer.reject(error);
    }
    return waiting.length;
  }

  #admitProducer(): void {
    const producer = this.#producers.shift();
    if (producer === undefined) return;
    if (producer.timer !== undefined) clearTimeout(producer.timer);
    this.#items.push(producer.item);
    this.#wakeOne();
    producer.resolve();
  }
}
