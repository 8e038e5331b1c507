/** The buckets of one quota key, as rates and capacities the store refills and takes from. */
export interface QuotaBuckets {
  /** Requests added per millisecond; 0 when requests are not limited. */
  requestsPerMs: number;
  requestCapacity: number;
  /** Tokens added per millisecond; 0 when tokens are not limited. */
  tokensPerMs: number;
  tokenCapacity: number;
  /** How long an idle key's state is kept, in ms. */
  idleMs: number;
}

/**
 * Where quota buckets live: in this process (`memoryQuotaStore`) or shared by every instance
 * (`RedisStore.quotaStore(name)` of @routekit/redis).
 */
export interface QuotaStore {
  /**
   * Takes one request and `tokens` from `key`'s buckets when both hold them and the key is not
   * paused, answering 0; else takes nothing and answers how many ms to wait before trying again.
   */
  take(key: string, tokens: number, buckets: QuotaBuckets): Promise<number>;
  /** `take` answered at once, for a store in this process's memory (a call that may go saves a turn). */
  takeNow?(key: string, tokens: number, buckets: QuotaBuckets): number;
  /** Pauses `key` for `ms` for everyone sharing the store (a longer pause already set stays). */
  pause(key: string, ms: number): Promise<void>;
}

interface KeyState {
  requests: number;
  tokens: number;
  updated: number;
  pausedUntil: number;
}

/** Most keys a memory store keeps; the least recently used is dropped past it. */
const MAX_KEYS = 10_000;

/** Quota buckets in this process's memory (one process: the default). */
export function memoryQuotaStore(): QuotaStore {
  const keys = new Map<string, KeyState>();
  // The key used last is already the newest in the map's order: no need to move it again (most
  // calls of a process go to one key).
  let newest: string | undefined;
  const stateOf = (key: string, buckets: QuotaBuckets, now: number): KeyState => {
    let state = keys.get(key);
    if (state !== undefined && key === newest) return state;
    if (state === undefined) {
      state = {
        requests: buckets.requestCapacity,
        tokens: buckets.tokenCapacity,
        updated: now,
        pausedUntil: 0,
      };
      if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value as string);
    } else keys.delete(key);
    keys.set(key, state);
    newest = key;
    return state;
  };
  const takeNow = (key: string, tokens: number, buckets: QuotaBuckets): number => {
    const now = Date.now();
    const state = stateOf(key, buckets, now);
    if (state.pausedUntil > now) return state.pausedUntil - now;
    const elapsed = Math.max(0, now - state.updated);
    state.updated = now;
    state.requests = Math.min(buckets.requestCapacity, state.requests + elapsed * buckets.requestsPerMs);
    state.tokens = Math.min(buckets.tokenCapacity, state.tokens + elapsed * buckets.tokensPerMs);
    let wait = 0;
    if (buckets.requestsPerMs > 0 && state.requests < 1) {
      wait = Math.ceil((1 - state.requests) / buckets.requestsPerMs);
    }
    if (buckets.tokensPerMs > 0 && state.tokens < tokens) {
      wait = Math.max(wait, Math.ceil((tokens - state.tokens) / buckets.tokensPerMs));
    }
    if (wait === 0) {
      if (buckets.requestsPerMs > 0) state.requests -= 1;
      if (buckets.tokensPerMs > 0) state.tokens -= tokens;
    }
    return wait;
  };
  return {
    take: (key, tokens, buckets) => Promise.resolve(takeNow(key, tokens, buckets)),
    takeNow,
    pause(key, ms) {
      const now = Date.now();
      const state = keys.get(key) ?? { requests: 0, tokens: 0, updated: now, pausedUntil: 0 };
      state.pausedUntil = Math.max(state.pausedUntil, now + ms);
      if (!keys.has(key)) {
        if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value as string);
        keys.set(key, state);
        newest = key;
      }
      return Promise.resolve();
    },
  };
}
