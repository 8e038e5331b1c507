import { consoleOf, consolePlugin } from "@routekit/console";
import { createContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { llmPlugin } from "@routekit/llm";
import { chooseModel, RECORDED_BASE_URL } from "./choose-model.js";
import { type InventoryServer, startInventoryServer } from "./inventory-server.js";
import { addQuickstartRoutes, QUICKSTART_SKUS } from "./routes.js";
import { printTrace, shorten, traceLogger } from "./trace.js";

const withConsole = process.argv.includes("--console");
const serve = process.argv.includes("--serve") || withConsole;
const QUESTION = "How many widgets do we have in stock across all warehouses, and what are they worth?";

/** The inventory API on the port the transcript was written against, or a free one if taken. */
async function startInventory(): Promise<InventoryServer> {
  const port = Number(new URL(RECORDED_BASE_URL).port);
  try {
    return await startInventoryServer(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    const server = await startInventoryServer(0);
    console.log(
      `   note: port ${port} is taken; the inventory API listens on ${server.baseUrl} instead ` +
        "(the replayed transcript's URLs are rewritten to it)",
    );
    return server;
  }
}

console.log("routekit demo: tool routes, an enrichment pipeline and an HTTP endpoint with an LLM step\n");
const inventory = await startInventory();
const chosen = chooseModel(inventory.baseUrl);
console.log(`   model: ${chosen.description}`);
console.log(`   inventory API (local, for this demo): ${inventory.baseUrl}/inventory\n`);

// #region context
const context = createContext({ logger: traceLogger() });
context.use(llmPlugin({ models: { assistant: chosen.model } }));
context.use(httpPlugin({ host: "127.0.0.1", port: 0 }));
// #endregion
// #region console
// pnpm demo --console: the dev console, installed before the routes so it sees their steps. It
// records from the start: the demo's own requests run before anyone opens the page.
if (withConsole) context.use(consolePlugin({ record: "always" }));
// #endregion
printTrace(context, ["enrich", "ask"]);
// The demo's own request must show every tool working: a failed tool call fails the demo, even when
// the model (or the recorded answer) talks its way around it.
const failedToolCalls: string[] = [];
const stopCountingFailures = context.events.on("tool-call-completed", (event) => {
  if (event.isError) failedToolCalls.push(`${event.toolName}: ${shorten(event.output ?? "", 200)}`);
});

// 1.-3. The tool routes, the enrichment pipeline and POST /ask: see routes.ts.
await addQuickstartRoutes(context, inventory);

console.log("1. tool routes (mounted with the wrapper classes):");
for (const tool of context.tools.list())
  console.log(`   ${tool.name.padEnd(14)} ${shorten(tool.description, 90)}`);

console.log("\n2. enrichment: timer -> httpFetch -> jsonPath -> log (no LLM)");
const enriched = context.endpoint("mock:enriched").expectedMessageCount(QUICKSTART_SKUS.length);
await context.start();
if (withConsole)
  console.log(`   console: ${consoleOf(context)?.url} (the route graph, exchanges and agent runs, live)`);
await enriched.assertIsSatisfied(15_000);

// #region request
const askUrl = `${httpServerOf(context).url}/ask`;
console.log(`\n3. POST ${askUrl}  {"question": "${QUESTION}"}`);
const response = await fetch(askUrl, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ question: QUESTION }),
});
const reply = (await response.json()) as { answer?: string; toolCalls?: number; error?: string };
// #endregion
console.log(`   HTTP ${response.status}`);
console.log(`\nanswer: ${reply.answer ?? reply.error}`);
if (chosen.replaying) console.log("(replayed from the shipped transcript: no model was called)");
stopCountingFailures();
if (response.status !== 200) process.exitCode = 1;
if (failedToolCalls.length > 0) {
  console.error(
    `\ndemo FAILED: ${failedToolCalls.length} of ${reply.toolCalls ?? "?"} tool calls failed ` +
      "(the answer above was given without their results):",
  );
  for (const failure of failedToolCalls) console.error(`   ${failure}`);
  process.exitCode = 1;
}

if (serve) {
  console.log(`\nServing. Try:\n  curl -s -X POST ${askUrl} -H 'content-type: application/json' \\`);
  console.log(`    -d '{"question": "${QUESTION}"}'`);
  console.log("Press Ctrl+C to stop.");
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}

await context.stop();
await inventory.close();
console.log("\nstopped cleanly");
