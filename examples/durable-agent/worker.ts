// One worker of the durable-agent example. Several processes run this program on one RabbitMQ
// queue of agent runs; each run is a durable llm step whose state lives in PostgreSQL, so a run
// whose worker dies goes on in another worker from its last checkpoint.
// Usage: tsx examples/durable-agent/worker.ts <runs-queue> <table-prefix> <model-url> <effects-url>
import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";
import { httpPlugin } from "@routekit/http";
import { LLM_RUN_ID_HEADER, LlmError, llm, llmPlugin, openAiChat } from "@routekit/llm";
import { connectPostgres } from "@routekit/postgres";

const [runsQueue, prefix, modelUrl, effectsUrl] = process.argv.slice(2);
if (runsQueue === undefined || prefix === undefined || modelUrl === undefined || effectsUrl === undefined) {
  console.error("usage: worker.ts <runs-queue> <table-prefix> <model-url> <effects-url>");
  process.exit(2);
}
const worker = String(process.pid);

// #region durable-store
const postgres = await connectPostgres({
  host: "127.0.0.1",
  port: 5432,
  database: "postgres",
  user: "postgres",
  tablePrefix: prefix,
  migrate: true,
});
const context = createContext();
context.use(amqpPlugin());
context.use(httpPlugin());
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
    durable: { store: postgres.checkpointStore("runs"), leaseMs: 5000, recoverEveryMs: 1000 },
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
      // The charge must happen once: after a crash whose outcome is unknown, ask the server.
      durability: { effect: "once", reconcile: (_args, call) => chargeMade(call.effectKey) },
    })
    .setHeader("http.request.header.x-worker", worker)
    // The http: producer sends the call's effect key as Idempotency-Key.
    .to(`${effectsUrl}/charges?httpMethod=POST`);
  // #endregion durable-tools
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
process.stdout.write("ready\n");

process.on("SIGTERM", () => {
  context
    .stop({ timeoutMs: 5000 })
    .then(() => postgres.close())
    .finally(() => process.exit(0));
});
