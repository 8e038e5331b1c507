// One worker of the durable-agent example. Several processes run this program on one RabbitMQ
// queue of agent runs; each run is a durable llm step whose state lives in PostgreSQL (or Redis),
// so a run whose worker dies goes on in another worker from its last checkpoint. A run's second
// charge needs a person's approval: the run parks, the request goes to a webhook, and the answer
// comes back on a queue that every worker consumes, so any worker resumes the run.
// Usage: tsx examples/durable-agent/worker.ts <postgres|redis> <runs-queue> <answers-queue> <prefix> <model-url> <effects-url>
import { amqpPlugin } from "@routekit/amqp";
import { type CheckpointStore, createContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { LLM_RUN_ID_HEADER, LlmError, llm, llmPlugin, openAiChat } from "@routekit/llm";
import { connectPostgres } from "@routekit/postgres";
import { connectRedis } from "@routekit/redis";

const [storeKind, runsQueue, answersQueue, prefix, modelUrl, effectsUrl] = process.argv.slice(2);
if (
  (storeKind !== "postgres" && storeKind !== "redis") ||
  runsQueue === undefined ||
  answersQueue === undefined ||
  prefix === undefined ||
  modelUrl === undefined ||
  effectsUrl === undefined
) {
  console.error(
    "usage: worker.ts <postgres|redis> <runs-queue> <answers-queue> <prefix> <model-url> <effects-url>",
  );
  process.exit(2);
}
const worker = String(process.pid);

/** The run store every worker shares: PostgreSQL tables, or Redis keys. */
async function openRunStore(): Promise<{ runs: CheckpointStore; close(): Promise<void> }> {
  if (storeKind === "redis") {
    // #region durable-store-redis
    const redis = await connectRedis({ host: "127.0.0.1", port: 6379, keyPrefix: prefix });
    const runs = redis.checkpointStore("runs");
    // #endregion durable-store-redis
    return { runs, close: () => redis.close() };
  }
  // #region durable-store-postgres
  const postgres = await connectPostgres({
    host: "127.0.0.1",
    port: 5432,
    database: "postgres",
    user: "postgres",
    tablePrefix: prefix,
    migrate: true,
  });
  const runs = postgres.checkpointStore("runs");
  // #endregion durable-store-postgres
  return { runs, close: () => postgres.close() };
}

const store = await openRunStore();
const { runs } = store;
// #region durable-store
const context = createContext();
context.use(amqpPlugin());
context.use(httpPlugin({ host: "127.0.0.1" }));
context.use(
  llmPlugin({
    models: {
      agent: openAiChat({
        model: "agent",
        baseURL: modelUrl,
        apiKey: "local",
        maxRetries: 0,
        headers: { "x-worker": worker },
      }),
    },
    durable: {
      store: runs,
      leaseMs: 5000,
      recoverEveryMs: 1000,
      // Approval requests go to this route (below), which posts them to a webhook.
      approvals: "direct:approval-requests",
    },
  }),
);
// #endregion durable-store

/** Asks the effect server whether the charge with this key was made, and what it answered. */
async function chargeMade(effectKey: string) {
  const response = await fetch(`${effectsUrl}/charges/${encodeURIComponent(effectKey)}`);
  const found = (await response.json()) as { applied: boolean; result?: unknown };
  return found.applied ? { output: JSON.stringify(found.result), isError: false } : undefined;
}

await context.addRoutes((r) => {
  // Routes start in the order they are added: the runs' route comes last, so that everything a
  // run sends to is ready when its first message arrives.
  // #region durable-approval-requests
  // The parked run's request { runId, callId, toolName, arguments, ... } goes to a webhook.
  r.from("direct:approval-requests")
    .setHeader("http.request.header.x-worker", worker)
    .to(`${effectsUrl}/approvals?httpMethod=POST`);
  // #endregion durable-approval-requests
  // #region durable-tools
  r.from("direct:lookup")
    .asLlmTool("lookup", {
      description: "Looks an order up: its amount in cents.",
      input: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
    })
    .setHeader("http.request.header.x-worker", worker)
    .to(`${effectsUrl}/lookups?httpMethod=POST`);
  r.from("direct:charge")
    .asLlmTool("charge", {
      description: "Charges an order's card. Never repeat a charge.",
      input: {
        type: "object",
        properties: { order: { type: "string" }, cents: { type: "integer" } },
        required: ["order", "cents"],
      },
      durability: {
        // The charge must happen once: after a crash whose outcome is unknown, ask the server.
        effect: "once",
        reconcile: (_args, call) => chargeMade(call.effectKey),
        // Charges of 2 euros or more wait for a person.
        needsApproval: (args) => (args as { cents: number }).cents >= 200,
      },
    })
    .setHeader("http.request.header.x-worker", worker)
    // The http: producer sends the call's effect key as Idempotency-Key.
    .to(`${effectsUrl}/charges?httpMethod=POST`);
  // #endregion durable-tools
  // #region durable-approval-answers
  // Answers { runId, callId, approved, reason } arrive on a queue; whichever worker takes one resumes the run.
  r.from<{ runId: string; callId: string; approved: boolean; reason?: string }>(
    `amqp:queue:${answersQueue}?durable=false&prefetch=4`,
  )
    .routeId("approval-answers")
    .onException([LlmError], { maximumRedeliveries: 60, redeliveryDelay: 250 })
    .process(async (exchange) => {
      const { runId, callId, approved, reason } = exchange.body;
      await context.agents.approve(runId, callId, { approved, reason, by: "approvals queue" });
    });
  // Or through this worker's HTTP endpoint: POST /approvals { runId, callId, approved, reason }.
  r.from<{ runId: string; callId: string; approved: boolean; reason?: string }>(
    "http:/approvals?httpMethodRestrict=POST",
  ).transform(async (exchange) => {
    const { runId, callId, approved, reason } = exchange.body;
    const outcome = await context.agents.approve(runId, callId, { approved, reason, by: "approvals page" });
    return { runId, status: outcome === "waiting" ? "waiting" : outcome.status };
  });
  // #endregion durable-approval-answers
  // #region durable-route
  r.from<{ runId: string; prompt: string }>(`amqp:queue:${runsQueue}?durable=false&prefetch=4`)
    .routeId("agent-runs")
    // A run another worker holds (or held when it died) fails until its lease ends: retry here.
    .onException([LlmError], { maximumRedeliveries: 60, redeliveryDelay: 250 })
    .setHeader(LLM_RUN_ID_HEADER, "${body.runId}")
    .transform((exchange) => exchange.body.prompt)
    .to(llm("agent").tools("lookup", "charge").durable().uri());
  // #endregion durable-route
});
await context.start();
process.stdout.write(`ready ${httpServerOf(context).url}\n`);

process.on("SIGTERM", () => {
  context
    .stop({ timeoutMs: 5000 })
    .then(() => store.close())
    .finally(() => process.exit(0));
});
