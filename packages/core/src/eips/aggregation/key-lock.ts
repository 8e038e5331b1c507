import { isPromiseLike } from "../fan-out/maybe-async.js";

const ignore = (): void => undefined;

/**
 * Serialises work per key: work for a key runs only after the earlier work for that key settled.
 * Work that completes synchronously while nothing is pending runs at once, with no promise.
 */
export class KeyLock {
  readonly #tails = new Map<string, Promise<void>>();

  run<TResult>(key: string, work: () => TResult | PromiseLike<TResult>): TResult | Promise<TResult> {
    const tail = this.#tails.get(key);
    if (tail === undefined) {
      const result = work();
      if (!isPromiseLike(result)) return result;
      return this.#hold(key, Promise.resolve(result));
    }
    return this.#hold(
      key,
      tail.then(() => work()),
    );
  }

  #hold<TResult>(key: string, promise: Promise<TResult>): Promise<TResult> {
    const tail = promise.then(ignore, ignore);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return promise;
  }
}
