/** A deadline a queue can expire: its due time and what to do then. */
export interface QueuedDeadline {
  /** `performance.now()` at which it is due. */
  dueAt: number;
  /** Its place in the queue (an absolute sequence number), while queued. */
  queueSlot: number;
  /** Called once when it is due and still queued. */
  expire(): void;
}

/** Released slots are dropped from the front once this many pile up there and they are half the queue. */
const COMPACT_AFTER = 1_024;

/**
 * The deadlines of one duration behind one timer. With one duration, the order deadlines are
 * added is the order they fall due, so the queue is first in, first out: adding is an array push,
 * releasing empties a slot, and the single timer is armed for the oldest deadline still queued.
 * It replaces a `setTimeout` and a `clearTimeout` per exchange (an HTTP server's requests all have
 * the server's timeout) by one timer per duration.
 */
export class DeadlineQueue {
  readonly #durationMs: number;
  readonly #slots: Array<QueuedDeadline | undefined> = [];
  /** The sequence number of `#slots[0]`. */
  #base = 0;
  /** Index in `#slots` of the first slot that may hold a deadline. */
  #head = 0;
  #timer: NodeJS.Timeout | undefined = undefined;
  /** The due time the timer was armed for. */
  #armedFor = 0;

  constructor(durationMs: number) {
    this.#durationMs = durationMs;
  }

  /** How many slots are held, released ones included (for tests and bounds). */
  get length(): number {
    return this.#slots.length - this.#head;
  }

  add(deadline: QueuedDeadline): void {
    deadline.dueAt = performance.now() + this.#durationMs;
    deadline.queueSlot = this.#base + this.#slots.length;
    this.#slots.push(deadline);
    if (this.#timer === undefined) this.#arm(deadline.dueAt, this.#durationMs);
  }

  /** Takes a deadline out (it will not expire); a deadline no longer queued is ignored. */
  remove(deadline: QueuedDeadline): void {
    const index = deadline.queueSlot - this.#base;
    if (index < this.#head || this.#slots[index] !== deadline) return;
    this.#slots[index] = undefined;
    if (index === this.#head) this.#skipReleased();
  }

  #skipReleased(): void {
    const slots = this.#slots;
    while (this.#head < slots.length && slots[this.#head] === undefined) this.#head++;
    if (this.#head === slots.length) {
      this.#base += slots.length;
      slots.length = 0;
      this.#head = 0;
    } else if (this.#head >= COMPACT_AFTER && this.#head * 2 >= slots.length) {
      slots.splice(0, this.#head);
      this.#base += this.#head;
      this.#head = 0;
    }
  }

  #arm(dueAt: number, delayMs: number): void {
    this.#armedFor = dueAt;
    this.#timer = setTimeout(fire, Math.max(1, Math.ceil(delayMs)), this);
    this.#timer.unref();
  }

  /** Stops the timer (the context stopped; its deadlines were aborted and left the queue). */
  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Expires every deadline that is due, then arms the timer for the next one, if any. */
  expireDue(): void {
    this.#timer = undefined;
    // The timer fired, so its due time has come, whatever the clock says (fake timers in tests
    // move timers but not performance.now()).
    const now = Math.max(performance.now(), this.#armedFor);
    const slots = this.#slots;
    while (this.#head < slots.length) {
      const deadline = slots[this.#head];
      if (deadline !== undefined) {
        if (deadline.dueAt > now) break;
        slots[this.#head] = undefined;
        deadline.expire();
      }
      this.#head++;
    }
    this.#skipReleased();
    const next = slots[this.#head];
    if (next !== undefined) this.#arm(next.dueAt, next.dueAt - now);
  }
}

function fire(queue: DeadlineQueue): void {
  queue.expireDue();
}
