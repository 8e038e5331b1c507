// A process that starts a context with an amqp: consumer, has it consume one message, stops the
// context and then has nothing left to do: it should end by itself at once. If something still
// keeps it alive after STILL_ALIVE_MS, it prints "still alive:" and what keeps it.
// Usage: node --import tsx stop-and-exit.ts <queue>
import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";

const STILL_ALIVE_MS = 3000;
const [queue] = process.argv.slice(2);
if (queue === undefined) {
  console.error("usage: stop-and-exit.ts <queue>");
  process.exit(2);
}

const context = createContext({ logLevel: "off" });
context.use(amqpPlugin());
let consumed: () => void = () => {};
const delivery = new Promise<void>((resolve) => {
  consumed = resolve;
});
await context.addRoutes((r) => {
  r.from(`amqp:queue:${queue}?autoDelete=true&durable=false`).process(() => consumed());
});
await context.start();
await context.send(`amqp:queue:${queue}?autoDelete=true&durable=false`, { n: 1 });
await delivery;
await context.stop({ timeoutMs: 5000 });
process.stdout.write("stopped\n");
setTimeout(() => {
  const kept = process.getActiveResourcesInfo().filter((name) => name !== "PipeWrap" && name !== "TTYWrap");
  process.stdout.write(`still alive: ${kept.join(", ")}\n`);
}, STILL_ALIVE_MS).unref();
