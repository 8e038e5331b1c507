import type { IdempotentRepository } from "@routekit/core";
import type {
  AggregateOptions,
  IdempotentConsumerOptions,
  SharedAggregationRepository,
} from "@routekit/core/internal";
import type { RedisAggregationRepository, RedisIdempotentRepository, RedisStore } from "@routekit/redis";
import { describe, expectTypeOf, it } from "vitest";

describe("@routekit/redis types", () => {
  it("gives repositories the aggregate and idempotentConsumer options accept", () => {
    expectTypeOf<RedisIdempotentRepository>().toExtend<IdempotentRepository>();
    expectTypeOf<RedisAggregationRepository>().toExtend<SharedAggregationRepository>();
    expectTypeOf<RedisIdempotentRepository>().toExtend<
      NonNullable<IdempotentConsumerOptions["repository"]>
    >();
    expectTypeOf<RedisAggregationRepository>().toExtend<NonNullable<AggregateOptions["repository"]>>();
    expectTypeOf<
      ReturnType<RedisStore["aggregationRepository"]>
    >().toEqualTypeOf<RedisAggregationRepository>();
    expectTypeOf<RedisIdempotentRepository["add"]>().returns.toEqualTypeOf<Promise<boolean>>();
  });
});
