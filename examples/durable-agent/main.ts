// The durable-agent example: two worker processes take agent runs from one RabbitMQ queue; each
// run is 3 model turns with 2 tool calls in each of the first two (a lookup and a charge that must
// happen once). Workers are killed (SIGKILL) at each boundary of a run in turn — during a model
// call, after its reply, during a charge, after it — and started again. The program then counts:
// every run completed, no model turn sent more than twice, no charge made twice.
// Run from the repository root: pnpm exec tsx examples/durable-agent/main.ts
// Needs RabbitMQ (127.0.0.1:5672) and PostgreSQL (127.0.0.1:5432).
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";
import { connectPostgres } from "@routekit/postgres";
import amqplib from "amqplib";
import { type KillPoint, startEffects, startModel } from "./servers.js";

const RUNS = 20;
const prefix = `durable_agent_${process.pid}_`;
const runsQueue = `durable-agent-runs-${process.pid}`;
const workerScript = fileURLToPath(new URL("./worker.ts", import.meta.url));

// Each boundary is hit once, by whichever run reaches it first (at turn 2, or at its second
// charge, so the run has a checkpoint behind it). A boundary whose worker was already gone (killed
// for another boundary a moment before) is armed again for the next run.
const POINTS: KillPoint[] = ["model-call", "after-model-reply", "tool-call", "after-tool-result"];
const armed = new Set<KillPoint>(POINTS);
const killed: string[] = [];
const plan = (point: KillPoint, _runId: string, detail: string): boolean => {
  if (!armed.has(point)) return false;
  const atModel = point === "model-call" || point === "after-model-reply";
  if (atModel ? detail !== "2" : !detail.endsWith("call_charge_2")) return false;
  armed.delete(point);
  return true;
};

const workers = new Map<number, { child: ChildProcess; exited: Promise<void> }>();
function startWorker(): Promise<void> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", workerScript, runsQueue, prefix, model.url, effects.url],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  workers.set(child.pid ?? 0, { child, exited });
  return new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`a worker exited (${code}) before it was ready`)));
  });
}
const restarts: Promise<void>[] = [];
const kill = (pid: number, point: KillPoint): void => {
  const worker = workers.get(pid);
  if (worker === undefined) {
    armed.add(point);
    return;
  }
  worker.child.kill("SIGKILL");
  workers.delete(pid);
  killed.push(point);
  restarts.push(startWorker());
};

const model = await startModel(plan, kill);
const effects = await startEffects(plan, kill);
const postgres = await connectPostgres({
  host: "127.0.0.1",
  port: 5432,
  database: "postgres",
  user: "postgres",
  tablePrefix: prefix,
  migrate: true,
});
const runs = postgres.checkpointStore("runs");
const context = createContext();
context.use(amqpPlugin());
await context.start();
await Promise.all([startWorker(), startWorker()]);

const send = (index: number) =>
  context.send(`amqp:queue:${runsQueue}?durable=false`, {
    runId: `run-${index}`,
    prompt: `run-${index} charge the order twice`,
  });
// The last runs wait until every boundary was hit (or most runs are done), so that a boundary
// armed again late still meets a run that reaches it.
const FIRST = 12;
for (let index = 0; index < FIRST; index++) await send(index);
const firstDeadline = Date.now() + 60_000;
while (armed.size > 0 && Date.now() < firstDeadline) {
  if ((await runs.list({ status: "completed", limit: RUNS })).length >= FIRST) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
for (let index = FIRST; index < RUNS; index++) await send(index);

const deadline = Date.now() + 120_000;
let completed = 0;
while (Date.now() < deadline) {
  completed = (await runs.list({ status: "completed", limit: RUNS })).length;
  if (completed === RUNS) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
await Promise.all(restarts);

const turnsSentTwice = [...model.requests.values()].filter((count) => count === 2).length;
const turnsSentMore = [...model.requests.values()].filter((count) => count > 2).length;
const charges = [...effects.applied.values()];
const chargedTwice = charges.filter((count) => count > 1).length;
console.log(`workers killed: ${killed.length} (${killed.join(", ")})`);
const missed = POINTS.filter((point) => armed.has(point));
if (missed.length > 0) console.log(`boundaries no run reached while its worker lived: ${missed.join(", ")}`);
console.log(`runs completed: ${completed} of ${RUNS}`);
console.log(
  `model turns: ${model.requests.size} of ${RUNS * 3}; sent twice: ${turnsSentTwice}; more than twice: ${turnsSentMore}`,
);
console.log(`charges made: ${charges.length} of ${RUNS * 2}; made more than once: ${chargedTwice}`);
console.log(`requests without an Idempotency-Key: ${effects.withoutKey()}`);
const ok =
  completed === RUNS &&
  turnsSentMore === 0 &&
  charges.length === RUNS * 2 &&
  chargedTwice === 0 &&
  effects.withoutKey() === 0 &&
  killed.length === POINTS.length;
console.log(`every run survived its crash, no charge twice: ${ok ? "yes" : "NO"}`);

for (const worker of workers.values()) worker.child.kill("SIGTERM");
await Promise.all([...workers.values()].map((worker) => worker.exited));
await context.stop();
// The runs queue outlives its consumers (a worker killed while it is alone must not take the
// queue's messages with it), so it is deleted here.
const connection = await amqplib.connect("amqp://guest:guest@127.0.0.1:5672");
const channel = await connection.createChannel();
await channel.deleteQueue(runsQueue);
await connection.close();
await postgres.dropTables();
await postgres.close();
await Promise.all([model.close(), effects.close()]);
process.exit(ok ? 0 : 1);
