export { connectPostgres, type PostgresStore } from "./connect-postgres.js";
export type {
  PostgresAggregationRepository,
  PostgresAggregationRepositoryOptions,
} from "./postgres-aggregation-repository.js";
export type {
  PostgresIdempotentRepository,
  PostgresIdempotentRepositoryOptions,
} from "./postgres-idempotent-repository.js";
export type { PostgresStoreOptions } from "./postgres-options.js";
export { PostgresStoreError, type PostgresStoreErrorCode } from "./postgres-store-error.js";
