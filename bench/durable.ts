// Durable agent runs: the same 3-tool agent (3 model turns, 2 tool calls in each of the first two)
// on one loopback model — routekit's durable llm step on PostgreSQL beside LangGraph.js with its
// PostgreSQL checkpointer, and what checkpointing costs routekit per turn on each store (the same
// route without `.durable()` is the baseline). Rounds alternate the sides.
// Usage: tsx bench/durable.ts [--quick]
import { pathToFileURL } from "node:url";
import {
  type CheckpointStore,
  createContext,
  createMemoryCheckpointStore,
  type RouteContext,
} from "@routekit/core";
import { LLM_RUN_ID_HEADER, llm, llmPlugin, openAiChat } from "@routekit/llm";
import { connectPostgres } from "@routekit/postgres";
import { connectRedis } from "@routekit/redis";
import { langGraphAgent } from "./durable-langgraph.js";
import { startAgentModel } from "./durable-model.js";
import { type BenchOptions, type BenchRow, compareAll, printRow, rowOf, type Stats } from "./harness.js";

const TURNS = 3;
const POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres";

/** A context running the agent as an llm step, durable on `store` or (without one) in memory only. */
async function agentContext(modelUrl: string, store: CheckpointStore | undefined): Promise<RouteContext> {
  const context = createContext();
  context.use(
    llmPlugin({
      models: { agent: openAiChat({ model: "agent", apiKey: "local", baseURL: modelUrl, maxRetries: 0 }) },
      ...(store === undefined ? {} : { durable: { store, recoverEveryMs: 0 } }),
    }),
  );
  await context.addRoutes((r) => {
    r.from("direct:lookup")
      .asLlmTool("lookup", { description: "Looks an order up." })
      .transform((exchange) => ({ ...exchange.body, items: 3 }));
    r.from("direct:price")
      .asLlmTool("price", { description: "Prices an item in cents." })
      .transform((exchange) => ({ ...exchange.body, unit: 1250 }));
    r.from<{ count: number; unit: number }>("direct:total")
      .asLlmTool("total", { description: "Multiplies count by unit price." })
      .transform((exchange) => ({ total: exchange.body.count * exchange.body.unit }));
    const step = llm("agent").tools("lookup", "price", "total");
    r.from("direct:agent").to((store === undefined ? step : step.durable()).uri());
  });
  await context.start();
  return context;
}

let runCounter = 0;
/** `count` runs one after the other, each a new run id. */
function runs(context: RouteContext) {
  return async (count: number): Promise<void> => {
    for (let index = 0; index < count; index++) {
      const exchange = await context.requestExchange("direct:agent", {
        body: "What does order A-1 cost in total?",
        headers: { [LLM_RUN_ID_HEADER]: `bench-${process.pid}-${runCounter++}` },
      });
      if (exchange.error !== undefined) throw exchange.error;
    }
  };
}

function checkpointRow(store: string, subject: Stats, base: Stats): BenchRow {
  const perTurnMs = (subject.medianNs - base.medianNs) / TURNS / 1e6;
  return rowOf(
    {
      benchmark: `durable agent run (3 turns, 4 tool calls) checkpointed in ${store}`,
      subject: "routekit llm step .durable()",
      baseline: "the same llm step, not durable",
      baselineDescription:
        "the same route and loopback model without .durable(): the run lives in memory only",
      subjectStats: subject,
      baselineStats: base,
      target: store === "memory" ? "checkpoint cost ≤ 1 ms per turn (median)" : "context",
      note: `checkpointing costs ${perTurnMs.toFixed(3)} ms per turn (9 writes per run: start, 3 turns, 4 results, the end)`,
    },
    () => store !== "memory" || perTurnMs <= 1,
  );
}

export async function runDurableBench(options: BenchOptions): Promise<BenchRow[]> {
  const iterations = options.quick ? 10 : 40;
  const rounds = options.quick ? 2 : 8;
  const model = await startAgentModel();
  const redis = await connectRedis({
    host: "127.0.0.1",
    port: 6379,
    keyPrefix: `bench-durable-${process.pid}`,
  });
  const postgres = await connectPostgres({
    host: "127.0.0.1",
    port: 5432,
    database: "postgres",
    user: "postgres",
    tablePrefix: `bench_durable_${process.pid}_`,
    migrate: true,
  });
  const plain = await agentContext(model.url, undefined);
  const memory = await agentContext(model.url, createMemoryCheckpointStore());
  const onRedis = await agentContext(model.url, redis.checkpointStore("runs"));
  const onPostgres = await agentContext(model.url, postgres.checkpointStore("runs"));
  const peer = await langGraphAgent(model.url, POSTGRES);
  let thread = 0;
  const langGraphRuns = async (count: number): Promise<void> => {
    for (let index = 0; index < count; index++) await peer.run(`bench-${process.pid}-${thread++}`);
  };
  const rows: BenchRow[] = [];
  try {
    const [durable, plainStats, memoryStats, redisStats, peerStats] = await compareAll(
      [runs(onPostgres), runs(plain), runs(memory), runs(onRedis), langGraphRuns],
      iterations,
      rounds,
    );
    rows.push(
      rowOf(
        {
          benchmark: "durable agent run (3 turns, 4 tool calls) on PostgreSQL, beside a peer",
          subject: "routekit llm step .durable() on PostgreSQL",
          baseline: "LangGraph.js createReactAgent + PostgresSaver",
          baselineDescription:
            "LangGraph.js 1.7 prebuilt ReAct agent over ChatOpenAI with the PostgreSQL checkpointer, same tools and loopback model",
          subjectStats: durable as Stats,
          baselineStats: peerStats as Stats,
          target: "≤ 0.5× LangGraph's time per run",
          note: `${((durable as Stats).medianNs / 1e6).toFixed(2)} ms vs ${((peerStats as Stats).medianNs / 1e6).toFixed(2)} ms per run`,
        },
        (ratio) => ratio <= 0.5,
      ),
      checkpointRow("memory", memoryStats as Stats, plainStats as Stats),
      checkpointRow("Redis", redisStats as Stats, plainStats as Stats),
      checkpointRow("PostgreSQL", durable as Stats, plainStats as Stats),
    );
  } finally {
    for (const context of [plain, memory, onRedis, onPostgres]) await context.stop();
    await peer.close();
    await postgres.dropTables();
    await Promise.all([postgres.close(), redis.close(), model.close()]);
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const rows = await runDurableBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
