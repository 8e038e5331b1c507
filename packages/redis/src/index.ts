export { connectRedis, type RedisStore } from "./connect-redis.js";
export type {
  RedisAggregationRepository,
  RedisAggregationRepositoryOptions,
} from "./redis-aggregation-repository.js";
export type {
  RedisIdempotentRepository,
  RedisIdempotentRepositoryOptions,
} from "./redis-idempotent-repository.js";
export type { RedisStoreOptions } from "./redis-options.js";
export type { RedisQuotaBuckets, RedisQuotaStore } from "./redis-quota-store.js";
export { RedisStoreError, type RedisStoreErrorCode } from "./redis-store-error.js";
