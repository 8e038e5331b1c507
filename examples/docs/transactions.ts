// The code of docs/guide/transactions.md: type-checked, not run (it needs PostgreSQL and
// RabbitMQ). packages/postgres/test/postgres-transacted.test.ts and transacted-tool.test.ts run
// the same pieces.
import { amqpPlugin } from "@routekit/amqp";
import { createContext, EFFECT_KEY_HEADER, type Exchange } from "@routekit/core";
import "@routekit/llm/tool";

const context = createContext();
context.use(amqpPlugin());

// #region transacted-route
import { connectPostgres, postgresTransaction } from "@routekit/postgres";

// One connection per exchange in flight (prefetch 10) and a few for the relay.
const postgres = await connectPostgres({ migrate: true, maxConnections: 14 });
context.use(postgres.outbox()); // the outbox: endpoints and their relay, started with the context

await context.addRoutes((r) => {
  r.from<{ orderId: string; amount: number }>("amqp:queue:payments?prefetch=10")
    .idempotentConsumer("${body.orderId}", {
      repository: postgres.transactedIdempotentRepository("payments"),
    })
    .process(async (exchange) => {
      // Commits with the key, or not at all.
      await postgresTransaction(exchange).query("INSERT INTO payments (order_id, amount) VALUES ($1, $2)", [
        exchange.body.orderId,
        exchange.body.amount,
      ]);
    })
    // Stored in the same transaction; sent to amqp:queue:receipts once it committed.
    .to("outbox:amqp:queue:receipts");
});
// #endregion transacted-route

// #region transacted-tool
const effectKey = (exchange: Exchange) => String(exchange.headers[EFFECT_KEY_HEADER] ?? "");

await context.addRoutes((r) => {
  r.from("direct:refund")
    .asLlmTool("refund", {
      description: "Refunds an order.",
      input: {
        type: "object",
        properties: { orderId: { type: "string" }, amount: { type: "number" } },
        required: ["orderId", "amount"],
      } as const,
    })
    // The effect key of a durable run's call: the same on every retry of this one call.
    .idempotentConsumer(effectKey, { repository: postgres.transactedIdempotentRepository("refunds") })
    .process(async (exchange) => {
      await postgresTransaction(exchange).query("INSERT INTO refunds (order_id, amount) VALUES ($1, $2)", [
        exchange.body.orderId,
        exchange.body.amount,
      ]);
    })
    .transform((exchange) => ({ refunded: exchange.body.amount }));
});
// #endregion transacted-tool
