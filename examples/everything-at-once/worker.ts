// The worker process: consumes the parts the gateway's `record_part` tool publishes to RabbitMQ,
// lets each part through once (an idempotent consumer on Redis, then one on PostgreSQL), collects
// the parts of an order on both stores (a shared aggregator on Redis and one on PostgreSQL) and
// answers each request with what it recorded. Traced with OpenTelemetry, as the gateway is.
// Usage: tsx examples/everything-at-once/worker.ts <parts-queue> <prefix>
import { amqpPlugin } from "@routekit/amqp";
import { createContext, groupedBodies } from "@routekit/core";
import { otelPlugin } from "@routekit/otel";
import { connectPostgres } from "@routekit/postgres";
import { connectRedis } from "@routekit/redis";
import { type Completion, PARTS_PER_ORDER, type Part, TEMPORARY_QUEUE } from "./order-parts.js";
import { printForTest, recordFailures, startTracing, stopOnSigterm } from "./process-report.js";

const [partsQueue, prefix] = process.argv.slice(2);
if (partsQueue === undefined || prefix === undefined) {
  console.error("usage: worker.ts <parts-queue> <prefix>");
  process.exit(2);
}

const tracing = startTracing();
const redis = await connectRedis({ host: "127.0.0.1", port: 6379, keyPrefix: prefix });
const postgres = await connectPostgres({ host: "127.0.0.1", port: 5432, tablePrefix: prefix, migrate: true });

const completions: Completion[] = [];
const context = createContext({ logLevel: "warn" });
context.use(otelPlugin());
context.use(amqpPlugin({ url: "amqp://guest:guest@127.0.0.1:5672" }));
const failures = recordFailures(context);

await context.addRoutes((r) => {
  // A request that fails is answered with its error (RabbitMQ request-reply is not redelivered).
  r.from<Part>(`amqp:queue:${partsQueue}?${TEMPORARY_QUEUE}`)
    .routeId("parts")
    .idempotentConsumer("${body.order}/${body.part}", { repository: redis.idempotentRepository("parts") })
    .idempotentConsumer("${body.order}/${body.part}", {
      repository: postgres.idempotentRepository("parts"),
    })
    .to("direct:orders-on-redis")
    .to("direct:orders-on-postgres")
    .transform(({ body }) => ({ recorded: `${body.order}/${body.part}` }));

  for (const store of ["redis", "postgres"] as const) {
    const repository =
      store === "redis" ? redis.aggregationRepository("orders") : postgres.aggregationRepository("orders");
    r.from<Part>(`direct:orders-on-${store}`)
      .routeId(`orders-on-${store}`)
      .aggregate<Part[]>("${body.order}", {
        strategy: groupedBodies<Part>(),
        repository,
        partId: "${body.order}/${body.part}",
        completionSize: PARTS_PER_ORDER,
      })
      .process(({ body }) => {
        completions.push({ store, order: body[0]?.order ?? "?", parts: body.map((item) => item.part) });
      });
  }
});
await context.start();

stopOnSigterm({
  context,
  tracing,
  failures,
  release: async () => {
    await Promise.all([redis.close(), postgres.close()]);
  },
  details: () => ({ completions }),
});
printForTest({ ready: {} });
