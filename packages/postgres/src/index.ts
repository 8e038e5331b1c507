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
export type { PostgresOutboxOptions } from "./postgres-outbox.js";
export { PostgresStoreError, type PostgresStoreErrorCode } from "./postgres-store-error.js";
export type {
  PostgresTransactedIdempotentRepository,
  PostgresTransactedIdempotentRepositoryOptions,
} from "./postgres-transacted-idempotent-repository.js";
export { type PostgresTransaction, postgresTransaction } from "./postgres-transaction.js";
