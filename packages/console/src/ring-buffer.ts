/**
 * A fixed-size buffer keeping the most recent items: adding to a full buffer drops the oldest.
 * Memory stays bounded whatever the traffic.
 */
export class RingBuffer<TItem> {
  readonly capacity: number;
  readonly #items: Array<TItem | undefined>;
  #next = 0;
  #size = 0;
  /** Items ever added (dropped ones included). */
  added = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`a ring buffer needs a capacity of at least 1, found ${capacity}`);
    }
    this.capacity = capacity;
    this.#items = new Array<TItem | undefined>(capacity);
  }

  get size(): number {
    return this.#size;
  }

  /** Adds an item; returns the one it pushed out, if the buffer was full. */
  push(item: TItem): TItem | undefined {
    const dropped = this.#size === this.capacity ? this.#items[this.#next] : undefined;
    this.#items[this.#next] = item;
    this.#next = (this.#next + 1) % this.capacity;
    if (this.#size < this.capacity) this.#size++;
    this.added++;
    return dropped;
  }

  /** The items, newest first. */
  newestFirst(): TItem[] {
    const items: TItem[] = [];
    for (let offset = 1; offset <= this.#size; offset++) {
      const position = (this.#next - offset + this.capacity) % this.capacity;
      items.push(this.#items[position] as TItem);
    }
    return items;
  }
}
