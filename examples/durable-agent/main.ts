// The durable-agent example: two worker processes take agent runs from one RabbitMQ queue; each
// run is 3 model turns with 2 tool calls in each of the first two (a lookup and a charge that must
// happen once; the second charge waits for a person's approval). Workers are killed (SIGKILL) at
// each boundary of a run in turn — during a model call, after its reply, during a charge, after
// it, while a run is parked for approval (the answer is sent after the kill) — and started again.
// The program then counts: every run completed, no checkpointed model turn sent again, no turn
// sent again unless the worker that sent it died, no charge made twice, every charge carried its
// Idempotency-Key.
// Run from the repository root: pnpm exec tsx examples/durable-agent/main.ts [options]
//   --store postgres|redis   where the runs are kept (default postgres)
//   --runs N                 how many runs (default 20)
//   --rounds K               how many times each boundary is killed (default 1)
// Needs RabbitMQ (127.0.0.1:5672) and PostgreSQL (127.0.0.1:5432) or Redis (127.0.0.1:6379).
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { amqpPlugin } from "@routekit/amqp";
import { type CheckpointStore, createContext } from "@routekit/core";
import { connectPostgres } from "@routekit/postgres";
import { connectRedis } from "@routekit/redis";
import amqplib from "amqplib";
import { type KillPoint, type ReceivedApproval, startEffects, startModel } from "./servers.js";

const { values } = parseArgs({
  options: {
    store: { type: "string", default: "postgres" },
    runs: { type: "string", default: "20" },
    rounds: { type: "string", default: "1" },
  },
});
const storeKind = values.store;
const RUNS = Number(values.runs);
const ROUNDS = Number(values.rounds);
if ((storeKind !== "postgres" && storeKind !== "redis") || !(RUNS >= 1) || !(ROUNDS >= 1)) {
  console.error("usage: main.ts [--store postgres|redis] [--runs N >= 1] [--rounds K >= 1]");
  process.exit(2);
}
const prefix = `durable_agent_${process.pid}_`;
const runsQueue = `durable-agent-runs-${process.pid}`;
const answersQueue = `durable-agent-answers-${process.pid}`;
const workerScript = fileURLToPath(new URL("./worker.ts", import.meta.url));

// The boundaries are killed one after another, in this order, ROUNDS times over: the next one is
// armed once the last kill happened. Model boundaries wait for turn 2 or 3 and tool boundaries for
// a charge, so the run has a checkpoint behind it. A boundary whose worker was already gone is
// armed again for the next run that reaches it.
const POINTS: KillPoint[] = ["model-call", "after-model-reply", "tool-call", "after-tool-result", "parked"];
const killed: KillPoint[] = [];
const armed = (): KillPoint | undefined =>
  killed.length < POINTS.length * ROUNDS ? POINTS[killed.length % POINTS.length] : undefined;
let pending: KillPoint | undefined;
// Each model turn is a planned kill's victim at most once (the after-reply boundary would otherwise
// meet the turn the model-call kill cut off); a kill still cuts off the other runs its worker had.
const turnsKilled = new Set<string>();
const plan = (point: KillPoint, runId: string, detail: string): boolean => {
  if (pending !== undefined || armed() !== point) return false;
  const atModel = point === "model-call" || point === "after-model-reply";
  if (atModel ? detail === "1" : point !== "parked" && !detail.includes(":call_charge_")) return false;
  if (atModel && turnsKilled.has(`${runId}:${detail}`)) return false;
  if (atModel) turnsKilled.add(`${runId}:${detail}`);
  pending = point;
  return true;
};

/** The workers this program killed, by process id. */
const killedPids = new Set<number>();
/** The live workers by process id: the process, and its HTTP endpoint once it is ready. */
const workers = new Map<number, { child: ChildProcess; exited: Promise<void>; url?: string }>();
function startWorker(): Promise<void> {
  const args = [storeKind, runsQueue, answersQueue, prefix, model.url, effects.url];
  const child = spawn(process.execPath, ["--import", "tsx", workerScript, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const worker: { child: ChildProcess; exited: Promise<void>; url?: string } = { child, exited };
  workers.set(child.pid ?? 0, worker);
  return new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      const ready = /ready (\S+)/.exec(chunk.toString());
      if (ready === null) return;
      worker.url = ready[1];
      resolve();
    });
    // A worker takes runs as soon as its routes start, a moment before it says it is ready: one
    // killed at a boundary in that moment was not broken, only unlucky.
    child.once("exit", (code) =>
      killedPids.has(child.pid ?? 0)
        ? resolve()
        : reject(new Error(`a worker exited (${code}) before it was ready`)),
    );
  });
}
const restarts: Promise<void>[] = [];
const kill = (pid: number, point: KillPoint): void => {
  pending = undefined;
  const worker = workers.get(pid);
  if (worker === undefined) return; // that worker is gone already: the boundary stays armed
  worker.child.kill("SIGKILL");
  killedPids.add(pid);
  workers.delete(pid);
  killed.push(point);
  restarts.push(startWorker());
};

/** The store main reads to count and check: the same tables or keys as the workers'. */
async function openRunStore(): Promise<{ runs: CheckpointStore; drop(): Promise<void> }> {
  if (storeKind === "redis") {
    const redis = await connectRedis({ host: "127.0.0.1", port: 6379, keyPrefix: prefix });
    const runs = redis.checkpointStore("runs");
    const drop = async () => {
      for (const status of ["running", "parked", "completed", "failed"]) {
        for (const record of await runs.list({ status, limit: 10_000 })) await runs.remove(record.id);
      }
      await redis.close();
    };
    return { runs, drop };
  }
  const postgres = await connectPostgres({
    host: "127.0.0.1",
    port: 5432,
    database: "postgres",
    user: "postgres",
    tablePrefix: prefix,
    migrate: true,
  });
  const drop = async () => {
    await postgres.dropTables();
    await postgres.close();
  };
  return { runs: postgres.checkpointStore("runs"), drop };
}

const store = await openRunStore();
const { runs } = store;
const context = createContext();
context.use(amqpPlugin());
await context.start();

/** Runs whose second charge a person denies: every fifth. */
const denied = (runId: string): boolean => Number(runId.slice("run-".length)) % 5 === 4;
/**
 * A person answering every charge that waits: every other answer goes to the HTTP endpoint of a
 * worker other than the one that asked, the rest to the answers queue (also when that worker is
 * gone). A parked run's worker may be killed first: the answer then comes after the kill.
 */
const approvalsReceived: ReceivedApproval[] = [];
const answeredOverHttp = new Set<string>();
const answers: Promise<unknown>[] = [];
/** Answers a worker's endpoint did not take (the worker was killed meanwhile): sent to the queue instead. */
const httpRefusals: string[] = [];
const answer = (approval: ReceivedApproval): void => {
  approvalsReceived.push(approval);
  if (plan("parked", approval.runId, approval.callId)) kill(approval.worker, "parked");
  const reply = {
    runId: approval.runId,
    callId: approval.callId,
    approved: !denied(approval.runId),
    ...(denied(approval.runId) ? { reason: "over the limit" } : {}),
  };
  const other = [...workers].find(([pid, worker]) => pid !== approval.worker && worker.url !== undefined);
  const overHttp = approvalsReceived.length % 2 === 0 && other !== undefined;
  const overQueue = () => context.send(`amqp:queue:${answersQueue}?durable=false`, reply);
  const sent = overHttp
    ? fetch(`${other[1].url}/approvals`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(reply),
      }).then(
        async (response) => {
          if (response.ok) answeredOverHttp.add(approval.runId);
          else {
            httpRefusals.push(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
            return overQueue();
          }
        },
        (error: unknown) => {
          httpRefusals.push(`${String(error)} (${String((error as Error).cause)})`);
          return overQueue();
        },
      )
    : overQueue();
  answers.push(
    sent.catch((error: unknown) => {
      console.error(`the answer to ${approval.runId} was not sent: ${String(error)}`);
    }),
  );
};
const checkpointed = async (runId: string, turn: number): Promise<boolean> => {
  const record = await runs.get(runId);
  return ((record?.state as { iteration?: number } | undefined)?.iteration ?? 0) >= turn;
};
const model = await startModel(plan, kill, checkpointed);
const effects = await startEffects(plan, kill, answer);
await Promise.all([startWorker(), startWorker()]);

const send = (index: number) =>
  context.send(`amqp:queue:${runsQueue}?durable=false`, {
    runId: `run-${index}`,
    prompt: `run-${index} charge the order twice`,
  });
const completedCount = async () => (await runs.list({ status: "completed", limit: RUNS })).length;
// While boundaries remain to be killed, a few runs at a time are in flight, so that every boundary
// still meets a run; once every kill happened, the rest go at once.
const IN_FLIGHT = 6;
const sendDeadline = Date.now() + 60_000 + RUNS * 4000;
let sent = 0;
while (sent < RUNS && Date.now() < sendDeadline) {
  if (armed() === undefined) {
    while (sent < RUNS) await send(sent++);
    break;
  }
  if (sent - (await completedCount()) < IN_FLIGHT) await send(sent++);
  else await new Promise((resolve) => setTimeout(resolve, 200));
}
while (sent < RUNS) await send(sent++);

const deadline = Date.now() + 120_000;
let completed = 0;
while (Date.now() < deadline) {
  completed = await completedCount();
  if (completed === RUNS) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
await Promise.all(restarts);
await Promise.all(answers);

const counts = [...model.requests.values()];
const turnsSentTwice = counts.filter((count) => count === 2).length;
const turnsSentMore = counts.filter((count) => count > 2).length;
// The guarantee: a turn is sent again only when the worker that sent it last died before the
// reply was checkpointed (every kill cuts off each model call its worker had in flight, so a turn
// cut off by two kills is legitimately sent three times).
const sentAgainWhileSenderLived = [...model.senders].filter(([, pids]) =>
  pids.slice(0, -1).some((pid) => !killedPids.has(pid)),
);
const charges = [...effects.applied.values()];
const chargedTwice = charges.filter((count) => count > 1).length;
const expectedKills = POINTS.length * ROUNDS;
console.log(`store: ${storeKind}; runs: ${RUNS}; rounds of kills: ${ROUNDS}`);
console.log(`workers killed: ${killed.length} of ${expectedKills} (${killed.join(", ")})`);
const missed = armed();
if (missed !== undefined) console.log(`boundary no run reached while its worker lived: ${missed}`);
console.log(`runs completed: ${completed} of ${RUNS}`);
for (let index = 0; index < RUNS && completed < RUNS; index++) {
  const record = await runs.get(`run-${index}`);
  if (record?.status === "completed") continue;
  const state = record?.state as
    | { iteration?: number; approvals?: Record<string, { status: string }> }
    | undefined;
  const approvals = Object.entries(state?.approvals ?? {}).map(
    ([id, approval]) => `${id} ${approval.status}`,
  );
  console.log(
    `  run-${index}: ${record?.status ?? "not in the store"}, version ${record?.version}, owner ${record?.owner}, ` +
      `turn ${state?.iteration}, approvals [${approvals.join(", ")}]`,
  );
}
console.log(
  `model turns: ${model.requests.size} of ${RUNS * 3}; sent twice: ${turnsSentTwice}; more than twice: ${turnsSentMore}`,
);
console.log(`checkpointed turns sent again: ${model.checkpointedSentAgain.length}`);
console.log(
  `turns sent again while their sender lived: ${sentAgainWhileSenderLived.length}` +
    sentAgainWhileSenderLived.map(([key, pids]) => ` ${key} by ${pids.join(", ")}`).join(";"),
);
console.log(`approval requests: ${approvalsReceived.length} (runs parked: ${RUNS})`);
const deniedRuns = Array.from({ length: RUNS }, (_, index) => `run-${index}`).filter(denied).length;
const expectedCharges = RUNS * 2 - deniedRuns;
console.log(
  `approvals answered through another worker's HTTP endpoint: ${answeredOverHttp.size}; denied: ${deniedRuns}`,
);
if (httpRefusals.length > 0) console.log(`  sent to the queue instead: ${httpRefusals.join("; ")}`);
console.log(`charges made: ${charges.length} of ${expectedCharges}; made more than once: ${chargedTwice}`);
console.log(`requests without an Idempotency-Key: ${effects.withoutKey()}`);
const ok =
  completed === RUNS &&
  sentAgainWhileSenderLived.length === 0 &&
  model.checkpointedSentAgain.length === 0 &&
  charges.length === expectedCharges &&
  chargedTwice === 0 &&
  effects.withoutKey() === 0 &&
  killed.length === expectedKills;
console.log(`every run survived its crash, no charge twice: ${ok ? "yes" : "NO"}`);

for (const worker of workers.values()) worker.child.kill("SIGTERM");
await Promise.all([...workers.values()].map((worker) => worker.exited));
await context.stop();
// The queues outlive their consumers (a worker killed while it is alone must not take the
// queue's messages with it), so they are deleted here.
const connection = await amqplib.connect("amqp://guest:guest@127.0.0.1:5672");
const channel = await connection.createChannel();
await channel.deleteQueue(runsQueue);
await channel.deleteQueue(answersQueue);
await connection.close();
await store.drop();
await Promise.all([model.close(), effects.close()]);
process.exit(ok ? 0 : 1);
