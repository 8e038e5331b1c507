// One worker of the transacted kill test, in a process of its own: consumes `queue` and lets each
// message id through once, the effect an insert into `<prefix>effects` (a table without a unique
// key). "transacted": the key, the insert and the confirm are one transaction
// (transactedIdempotentRepository + postgresTransaction). "plain": the key is claimed and
// confirmed by idempotentRepository, the insert runs on a pool of its own in between.
// Usage: node --import tsx transacted-kill-worker.ts <queue> <prefix> <transacted|plain>
import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";
import { connectPostgres, PostgresStoreError, postgresTransaction } from "@routekit/postgres";
import pg from "pg";
import { postgresConnection } from "./postgres-server.js";

const [queue, prefix, form] = process.argv.slice(2);
if (queue === undefined || prefix === undefined || (form !== "transacted" && form !== "plain")) {
  console.error("usage: transacted-kill-worker.ts <queue> <prefix> <transacted|plain>");
  process.exit(2);
}

const PREFETCH = 10;
// One connection per exchange in flight, and a few for the relay and the plain repository.
const postgres = await connectPostgres({
  ...postgresConnection,
  tablePrefix: prefix,
  maxConnections: PREFETCH + 4,
});
const effects = new pg.Pool({ ...postgresConnection, max: 4 });
effects.on("error", () => {});
const insert = `INSERT INTO ${prefix}effects (id, pid) VALUES ($1, $2)`;

const context = createContext();
context.use(amqpPlugin({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } }));
await context.addRoutes((r) => {
  const route = r
    .from<{ id: string }>(`amqp:queue:${queue}?prefetch=${PREFETCH}&maxRedeliveries=100`)
    .routeId(`kill-${form}-${process.pid}`)
    // A key held by another worker (its open transaction, or its unexpired claim): retry a while.
    .onException([PostgresStoreError], { maximumRedeliveries: 40, redeliveryDelay: 250 });
  if (form === "transacted") {
    route
      .idempotentConsumer("${body.id}", { repository: postgres.transactedIdempotentRepository("messages") })
      .process(async (exchange) => {
        await postgresTransaction(exchange).query(insert, [exchange.body.id, process.pid]);
      });
  } else {
    route
      .idempotentConsumer("${body.id}", {
        repository: postgres.idempotentRepository("messages", { claimTimeoutMs: 2000 }),
      })
      .process(async (exchange) => {
        await effects.query(insert, [exchange.body.id, process.pid]);
      });
  }
});
await context.start();
process.stdout.write("ready\n");

process.on("SIGTERM", () => {
  context
    .stop({ timeoutMs: 5000 })
    .then(() => Promise.all([postgres.close(), effects.end()]))
    .finally(() => process.exit(0));
});
