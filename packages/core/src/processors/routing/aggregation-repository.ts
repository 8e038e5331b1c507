import type { Exchange } from "../../model/exchange.js";

/**
 * Where `aggregate` keeps open groups between messages, by correlation key. Every method may
 * answer synchronously or with a promise (a persistent store); the aggregator serialises the
 * work per key, so a repository needs no locking of its own.
 */
export interface AggregationRepository {
  get(key: string): Exchange | undefined | Promise<Exchange | undefined>;
  put(key: string, exchange: Exchange): void | Promise<void>;
  remove(key: string): void | Promise<void>;
  /** The keys of the open groups. */
  keys(): Iterable<string> | Promise<Iterable<string>>;
}

/** The default repository: open groups in a Map, answering synchronously. */
export function createMemoryAggregationRepository(): AggregationRepository {
  const groups = new Map<string, Exchange>();
  return {
    get: (key) => groups.get(key),
    put: (key, exchange) => {
      groups.set(key, exchange);
    },
    remove: (key) => {
      groups.delete(key);
    },
    keys: () => [...groups.keys()],
  };
}
