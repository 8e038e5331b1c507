// The scale-out example: two worker processes share one RabbitMQ queue of order parts, some parts
// are sent twice, one worker is killed (SIGKILL) mid-run and started again, and this program
// consumes the results and counts what came out. Completions reach the results queue at least
// once: recovery re-sends a completed order whose worker died before confirming it, with the same
// completion id. The results consumer drops those by completion id, so every order is processed
// downstream once, with each of its parts once.
// Run from the repository root: pnpm exec tsx examples/scale-out/main.ts
// Needs RabbitMQ (127.0.0.1:5672), Redis (127.0.0.1:6379) and PostgreSQL (127.0.0.1:5432).
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";
import { connectPostgres } from "@routekit/postgres";
import { connectRedis } from "@routekit/redis";

interface Part {
  readonly id: string;
  readonly order: string;
}

const ORDERS = 60;
const PARTS = 5;
const prefix = `scale_out_${process.pid}_`;
const partsQueue = `scale-out-parts-${process.pid}`;
const resultsQueue = `scale-out-results-${process.pid}`;
const TEMPORARY = "autoDelete=true&durable=false";
const workerScript = fileURLToPath(new URL("./worker.ts", import.meta.url));

function startWorker(name: string): { child: ChildProcess; ready: Promise<void>; exited: Promise<void> } {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", workerScript, partsQueue, resultsQueue, prefix, String(PARTS)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
  });
  return { child, ready, exited };
}

// Completed orders arrive on the results queue at least once; count them by order and by part
// after dropping re-sent completions, and count the deliveries before that.
const redis = await connectRedis({ keyPrefix: prefix });
const completions: Array<{ order: string; ids: string[] }> = [];
let deliveries = 0;
const context = createContext();
context.use(amqpPlugin());
await context.addRoutes((r) => {
  // #region scale-out-downstream
  const handled = redis.idempotentRepository("results");
  r.from<Part[]>(`amqp:queue:${resultsQueue}?${TEMPORARY}`)
    .routeId("results")
    .process(() => {
      deliveries++;
    })
    // A completion re-sent by recovery carries the same completionId: handle it once.
    .idempotentConsumer("${header.completionId}", { repository: handled })
    .process((exchange) => {
      const parts = exchange.body;
      completions.push({ order: parts[0]?.order ?? "?", ids: parts.map((part) => part.id) });
    });
  // #endregion scale-out-downstream
});
await context.start();

const first = startWorker("worker-1");
const second = startWorker("worker-2");
await Promise.all([first.ready, second.ready]);

let sent = 0;
let duplicates = 0;
for (let line = 0; line < PARTS; line++) {
  for (let order = 0; order < ORDERS; order++) {
    const part = { id: `order-${order}/part-${line}`, order: `order-${order}` };
    await context.send(`amqp:queue:${partsQueue}?${TEMPORARY}`, part);
    sent++;
    if (sent % 6 === 0) {
      await context.send(`amqp:queue:${partsQueue}?${TEMPORARY}`, part); // a duplicate
      duplicates++;
    }
  }
}

const until = async (condition: () => boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

await until(() => completions.length >= ORDERS / 4, 60_000);
first.child.kill("SIGKILL");
await first.exited;
console.log(
  `worker-1 killed (SIGKILL) after ${completions.length} of ${ORDERS} orders had completed; starting it again`,
);
const restarted = startWorker("worker-1 (restarted)");
await restarted.ready;

const completedOrders = (): Set<string> => new Set(completions.map((completion) => completion.order));
await until(() => completedOrders().size === ORDERS, 120_000);
await new Promise((resolve) => setTimeout(resolve, 3000)); // late retries, if any, arrive now
second.child.kill("SIGTERM");
restarted.child.kill("SIGTERM");
await Promise.all([second.exited, restarted.exited]);

const perOrder = new Map<string, number>();
const perPart = new Map<string, number>();
for (const { order, ids } of completions) {
  perOrder.set(order, (perOrder.get(order) ?? 0) + 1);
  for (const id of ids) perPart.set(id, (perPart.get(id) ?? 0) + 1);
}
const ordersTwice = [...perOrder.values()].filter((count) => count > 1).length;
const partsTwice = [...perPart.values()].filter((count) => count > 1).length;
console.log(`parts sent: ${sent} + ${duplicates} duplicates, over two workers, one killed and restarted`);
console.log(`orders completed: ${perOrder.size} of ${ORDERS}; completed more than once: ${ordersTwice}`);
console.log(
  `parts in completed orders: ${perPart.size} of ${sent}; in more than one: ${partsTwice}; lost: ${sent - perPart.size}`,
);
console.log(
  `result messages: ${deliveries}; re-sent completions dropped by completion id: ${deliveries - completions.length}`,
);

// Clean up: queues, keys and tables of this run.
await context.stop();
await redis.idempotentRepository("parts").clear();
await redis.idempotentRepository("results").clear();
await redis.close();
const postgres = await connectPostgres({ tablePrefix: prefix });
await postgres.aggregationRepository("orders").clear();
await postgres.dropTables();
await postgres.close();
const once = perOrder.size === ORDERS && ordersTwice === 0 && partsTwice === 0 && perPart.size === sent;
console.log(
  once
    ? "at least once to the results queue, once downstream (deduplicated by completion id): yes"
    : "at least once to the results queue, once downstream (deduplicated by completion id): NO",
);
process.exit(once ? 0 : 1);
