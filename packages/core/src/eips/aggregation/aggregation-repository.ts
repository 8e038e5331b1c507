import type { Exchange } from "../../model/exchange.js";
import type {
  AggregationRepository,
  CompletedGroup,
  SharedAggregationRepository,
  SharedGroup,
  SharedGroupWrite,
  StoredExchange,
} from "../../model/repositories.js";

// The repository contracts are part of the route model (an aggregate step holds its repository).
export type {
  AggregationRepository,
  CompletedGroup,
  SharedAggregationRepository,
  SharedGroup,
  SharedGroupWrite,
  StoredExchange,
};

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

/** True for a repository shared between processes. */
export function isSharedAggregationRepository(value: unknown): value is SharedAggregationRepository {
  return typeof value === "object" && value !== null && (value as { shared?: unknown }).shared === true;
}
