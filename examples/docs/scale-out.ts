// The code of docs/guide/scale-out.md and of the @routekit/redis and @routekit/postgres READMEs:
// type-checked, not run (it needs Redis and PostgreSQL). examples/scale-out runs the same pieces.
import { createContext, groupedBodies } from "@routekit/core";

const context = createContext();

// #region redis-readme
import { connectRedis } from "@routekit/redis";

const redis = await connectRedis({ host: "127.0.0.1", port: 6379 }); // fails at once, naming host:port, when down
await context.addRoutes((r) => {
  r.from("seda:payments")
    .idempotentConsumer("${header.paymentId}", {
      repository: redis.idempotentRepository("payments", {
        claimTimeoutMs: 30_000,
        expireAfterMs: 86_400_000,
      }),
    })
    .to("log:charged");
  r.from("seda:lines")
    .aggregate("${body.orderId}", {
      strategy: groupedBodies(),
      repository: redis.aggregationRepository("order-lines"),
      completionSize: 3,
    })
    .to("log:orders");
});
// after context.stop():
await redis.close();

// #endregion redis-readme

// #region postgres-readme
import { connectPostgres } from "@routekit/postgres";

const postgres = await connectPostgres({ host: "127.0.0.1", port: 5432, database: "app", user: "app" });
await postgres.migrate(); // creates routekit_idempotent, routekit_aggregation_group, routekit_aggregation_completed
await context.addRoutes((r) => {
  r.from("seda:invoices")
    .idempotentConsumer("${body.invoiceNumber}", { repository: postgres.idempotentRepository("invoices") })
    .aggregate("${body.customer}", {
      strategy: groupedBodies(),
      repository: postgres.aggregationRepository("statements"),
      completionTimeout: 60_000,
    })
    .to("log:statements");
});
// after context.stop():
await postgres.close();
// #endregion postgres-readme
