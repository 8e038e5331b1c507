// A separate routekit process for the scale-out test: consumes `queue`, waits the
// `delayMs` header of each message, tags it with its worker name and forwards it to `results`.
// Usage: node --import tsx amqp-worker.ts <queue> <results> <worker-name>
import { amqpPlugin, amqpProperty } from "@routekit/amqp";
import { createContext } from "@routekit/core";

const [queue, results, name] = process.argv.slice(2);
if (queue === undefined || results === undefined || name === undefined) {
  console.error("usage: amqp-worker.ts <queue> <results> <worker-name>");
  process.exit(2);
}

const context = createContext();
context.use(amqpPlugin({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } }));
await context.addRoutes((r) => {
  r.from(`amqp:queue:${queue}?prefetch=5`)
    .routeId(`worker-${name}`)
    .process(async (exchange) => {
      const delayMs = Number(exchange.headers.delayMs ?? 0);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      exchange.headers.worker = name;
      exchange.headers.redelivered = exchange.properties[amqpProperty.redelivered];
    })
    .to(`amqp:queue:${results}`);
});
await context.start();
process.stdout.write("ready\n");

process.on("SIGTERM", () => {
  context.stop({ timeoutMs: 5000 }).finally(() => process.exit(0));
});
