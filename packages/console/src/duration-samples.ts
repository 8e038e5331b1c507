/** The most recent durations of something (a step, a route), for its median and 99th percentile. */
export class DurationSamples {
  readonly #values: Float64Array;
  #next = 0;
  #size = 0;

  constructor(capacity: number) {
    this.#values = new Float64Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  add(durationMs: number): void {
    this.#values[this.#next] = durationMs;
    this.#next = (this.#next + 1) % this.#values.length;
    if (this.#size < this.#values.length) this.#size++;
  }

  /** The `fraction` percentile (0.5 = median) of the kept samples, or undefined when there are none. */
  percentile(fraction: number): number | undefined {
    if (this.#size === 0) return undefined;
    const sorted = this.#values.slice(0, this.#size).sort();
    const rank = Math.min(this.#size - 1, Math.max(0, Math.ceil(fraction * this.#size) - 1));
    return sorted[rank];
  }
}
