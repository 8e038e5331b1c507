// One instance of the scale-out test, in a process of its own: consumes `queue`, lets each part
// id through once (idempotent consumer) and aggregates the parts of an order (completionSize),
// with one store for the keys and the other for the groups. Every run of the idempotent route's
// rest and every processed group is recorded in PostgreSQL tables `<prefix>runs` and
// `<prefix>results`, so the test can count what happened, also in a process it killed.
// Usage: node --import tsx scale-out-worker.ts <queue> <prefix> <idempotent-store> <parts-per-order>
import { amqpPlugin } from "@routekit/amqp";
import { AGGREGATE_COMPLETION_ID, createContext, groupedBodies } from "@routekit/core";
import { AGGREGATE_RECOVERY_ATTEMPTS } from "@routekit/core/internal";
import { connectPostgres, PostgresStoreError } from "@routekit/postgres";
import { connectRedis, RedisStoreError } from "@routekit/redis";
import pg from "pg";
import { postgresConnection } from "./postgres-server.js";

interface Part {
  readonly id: string;
  readonly order: string;
}

const [queue, prefix, idempotentStore, size] = process.argv.slice(2);
if (queue === undefined || prefix === undefined || idempotentStore === undefined || size === undefined) {
  console.error("usage: scale-out-worker.ts <queue> <prefix> <redis|postgres> <parts-per-order>");
  process.exit(2);
}

const postgres = await connectPostgres({ ...postgresConnection, tablePrefix: prefix, migrate: true });
const redis = await connectRedis({
  host: "127.0.0.1",
  port: Number(process.env.REDIS_PORT ?? 6379),
  keyPrefix: prefix,
});
const effects = new pg.Pool({ ...postgresConnection, max: 4 });
effects.on("error", () => {});
const idempotent =
  idempotentStore === "redis"
    ? redis.idempotentRepository("parts", { claimTimeoutMs: 2000 })
    : postgres.idempotentRepository("parts", { claimTimeoutMs: 2000 });
const groups =
  idempotentStore === "redis"
    ? postgres.aggregationRepository("orders")
    : redis.aggregationRepository("orders");

const context = createContext();
context.use(amqpPlugin({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } }));
await context.addRoutes((r) => {
  r.from<Part>(`amqp:queue:${queue}?prefetch=10&maxRedeliveries=100`)
    .routeId(`scale-out-${process.pid}`)
    // A key claimed by the killed instance fails until its claim expires: retry here a while.
    .onException([RedisStoreError, PostgresStoreError], { maximumRedeliveries: 40, redeliveryDelay: 250 })
    .idempotentConsumer("${body.id}", { repository: idempotent })
    .process(async (exchange) => {
      await effects.query(`INSERT INTO ${prefix}runs (id, pid) VALUES ($1, $2)`, [
        exchange.body.id,
        process.pid,
      ]);
    })
    .aggregate<Part[]>("${body.order}", {
      strategy: groupedBodies<Part>(),
      repository: groups,
      partId: "${body.id}",
      completionSize: Number(size),
      recovery: { interval: 1000 },
    })
    .process(async (exchange) => {
      await effects.query(
        `INSERT INTO ${prefix}results (order_key, completion_id, ids, attempts, pid) VALUES ($1, $2, $3, $4, $5)`,
        [
          exchange.body[0]?.order,
          exchange.properties[AGGREGATE_COMPLETION_ID],
          JSON.stringify(exchange.body.map((part) => part.id)),
          exchange.properties[AGGREGATE_RECOVERY_ATTEMPTS],
          process.pid,
        ],
      );
    });
});
await context.start();
process.stdout.write("ready\n");

process.on("SIGTERM", () => {
  context
    .stop({ timeoutMs: 5000 })
    .then(() => Promise.all([postgres.close(), redis.close(), effects.end()]))
    .finally(() => process.exit(0));
});
