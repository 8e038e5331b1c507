// One worker of the scale-out example. Several processes run this same program on one queue:
// a Redis idempotent consumer lets each part through once across all of them, and a PostgreSQL
// aggregator collects the parts of an order wherever they arrive. Each completed order is
// published to the results queue with the id of its completion.
// Usage: tsx examples/scale-out/worker.ts <parts-queue> <results-queue> <prefix> <parts-per-order>
import { amqpPlugin } from "@routekit/amqp";
import { AGGREGATE_COMPLETION_ID, createContext, groupedBodies } from "@routekit/core";
import { connectPostgres, PostgresStoreError } from "@routekit/postgres";
import { connectRedis, RedisStoreError } from "@routekit/redis";

// The example's queues go away when their last consumer stops.
const TEMPORARY = "autoDelete=true&durable=false";

interface Part {
  readonly id: string;
  readonly order: string;
}

const [partsQueue, resultsQueue, prefix, size] = process.argv.slice(2);
if (partsQueue === undefined || resultsQueue === undefined || prefix === undefined || size === undefined) {
  console.error("usage: worker.ts <parts-queue> <results-queue> <prefix> <parts-per-order>");
  process.exit(2);
}

// #region scale-out-stores
const redis = await connectRedis({ host: "127.0.0.1", port: 6379, keyPrefix: prefix });
const postgres = await connectPostgres({
  host: "127.0.0.1",
  port: 5432,
  database: "postgres",
  user: "postgres",
  tablePrefix: prefix,
  migrate: true, // creates the tables when missing; or call postgres.migrate() yourself
});
const seen = redis.idempotentRepository("parts", { claimTimeoutMs: 5000 });
const orders = postgres.aggregationRepository("orders");
// #endregion scale-out-stores

const context = createContext();
context.use(amqpPlugin());
await context.addRoutes((r) => {
  // #region scale-out-route
  r.from<Part>(`amqp:queue:${partsQueue}?${TEMPORARY}&prefetch=10&maxRedeliveries=50`)
    .routeId("parts")
    // A part another worker holds (or held when it died) fails until its claim ends, and a store
    // that is briefly unreachable until it is back: retry here. Errors not worth retrying
    // (`retryable: false`: a group that cannot be stored, bad options) fail at once.
    .onException([RedisStoreError, PostgresStoreError], { maximumRedeliveries: 40, redeliveryDelay: 250 })
    .idempotentConsumer("${body.id}", { repository: seen })
    .aggregate<Part[]>("${body.order}", {
      strategy: groupedBodies<Part>(),
      repository: orders,
      partId: "${body.id}", // a part delivered again is not added twice
      completionSize: Number(size),
      completionTimeout: 30_000, // checked by every worker, whoever received the parts
      recovery: {
        interval: 2000,
        maximumRedeliveries: 5,
        deadLetterUri: `amqp:queue:${resultsQueue}.failed`,
      },
    })
    .setHeader("completionId", (exchange) => exchange.properties[AGGREGATE_COMPLETION_ID])
    .to(`amqp:queue:${resultsQueue}?${TEMPORARY}`);
  // #endregion scale-out-route
});
await context.start();
process.stdout.write("ready\n");

process.on("SIGTERM", () => {
  context
    .stop({ timeoutMs: 5000 })
    .then(() => Promise.all([redis.close(), postgres.close()]))
    .finally(() => process.exit(0));
});
