// @routekit/redis, @routekit/postgres and @routekit/otel together: an idempotent consumer on each
// store drops a repeated order, and the OpenTelemetry SDK (an in-memory exporter) sees the routes.
import assert from "node:assert/strict";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { createContext } from "@routekit/core";
import { otelPlugin } from "@routekit/otel";
import { connectPostgres } from "@routekit/postgres";
import { connectRedis } from "@routekit/redis";

/** Where the stores listen: loopback by default, as the packaging test runs them. */
const redisPort = Number(process.env.REDIS_PORT ?? 6379);
const postgresPort = Number(process.env.POSTGRES_PORT ?? 5432);

export async function checkStoresAndTracing(): Promise<void> {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const run = `standalone_${process.pid}`;
  const redis = await connectRedis({ host: "127.0.0.1", port: redisPort, keyPrefix: run });
  const postgres = await connectPostgres({
    host: "127.0.0.1",
    port: postgresPort,
    database: process.env.POSTGRES_DATABASE ?? "postgres",
    user: process.env.POSTGRES_USER ?? "postgres",
    tablePrefix: `${run}_`,
    migrate: true,
  });
  const context = createContext({ logLevel: "warn" });
  context.use(otelPlugin({ tracerProvider }));
  try {
    await context.addRoutes((r) => {
      r.from("direct:redis-orders")
        .routeId("redis-orders")
        .idempotentConsumer("${body.id}", { repository: redis.idempotentRepository("orders") })
        .to("mock:redis-orders");
      r.from("direct:postgres-orders")
        .routeId("postgres-orders")
        .idempotentConsumer("${body.id}", { repository: postgres.idempotentRepository("orders") })
        .to("mock:postgres-orders");
    });
    await context.start();
    for (const store of ["redis", "postgres"]) {
      for (const id of ["A-1", "A-1", "A-2"]) await context.request(`direct:${store}-orders`, { id });
      const received = context.endpoint(`mock:${store}-orders`).receivedBodies;
      assert.deepEqual(received, [{ id: "A-1" }, { id: "A-2" }]);
      console.log(`${store}: the idempotent consumer let through`, JSON.stringify(received));
    }
    await context.stop();
    const routes = new Set(exporter.getFinishedSpans().map((span) => span.attributes["routekit.route.id"]));
    assert.ok(routes.has("redis-orders") && routes.has("postgres-orders"), `spans of routes: ${[...routes]}`);
    console.log(
      `otel: ${exporter.getFinishedSpans().length} spans, for routes ${[...routes].sort().join(", ")}`,
    );
  } finally {
    await context.stop();
    await postgres.dropTables();
    await postgres.close();
    await redis.close();
    await tracerProvider.shutdown();
  }
}
