import { consoleOf, consolePlugin } from "@routekit/console";
import { createContext, type Exchange } from "@routekit/core";
import { HTTP_HEADERS, httpPlugin, httpServerOf } from "@routekit/http";
import { LLM_HEADERS, llm, llmPlugin } from "@routekit/llm";
import {
  type HttpFetchOptions,
  HttpFetchTool,
  JsonPathTool,
  MathEvalTool,
  RegexExtractTool,
  XPathTool,
} from "@routekit/llm-tools";
import { chooseModel, RECORDED_BASE_URL } from "./choose-model.js";
import { type InventoryServer, startInventoryServer } from "./inventory-server.js";
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
// pnpm demo --console: the dev console, installed before the routes so it sees their steps.
if (withConsole) context.use(consolePlugin());
// #endregion
printTrace(context, ["enrich", "ask"]);

// #region tools
// 1. Tool routes, one wrapper class each. http_fetch refuses loopback and private addresses by
// default; the demo's inventory API is on 127.0.0.1, so it is allowed for that host only.
const fetchOptions: HttpFetchOptions = { allowPrivateNetwork: true, hostAllowlist: ["127.0.0.1"] };
await context.addRoutes(new HttpFetchTool(fetchOptions));
await context.addRoutes(new JsonPathTool());
await context.addRoutes(new MathEvalTool());
await context.addRoutes(new RegexExtractTool());
await context.addRoutes(new XPathTool());
// #endregion

// #region enrichment
// 2. The same tool steps in a plain pipeline, no LLM: a timer fetches each SKU's record and
// keeps the stock per warehouse.
const skus = ["W-1", "G-2"];
await context.addRoutes((r) => {
  r.from("timer:enrich?period=300&repeatCount=2")
    .routeId("enrich")
    .setHeader("sku", (exchange) => skus[Number(exchange.headers["timer.counter"]) - 1])
    .setBody((exchange: Exchange) => `${inventory.baseUrl}/inventory/${String(exchange.headers.sku)}`)
    .httpFetch(fetchOptions)
    .jsonPath({ path: "$.warehouses[*].stock" })
    .log("stock of ${header.sku} per warehouse: ${body}")
    .to("mock:enriched");
});
// #endregion

// #region ask
// 3. POST /ask {"question": "..."}: the LLM step answers with the tools above.
const assistant = llm("assistant")
  .tools("http_fetch", "json_path", "math_eval", "regex_extract", "xpath")
  .systemPrompt(
    `You answer questions about our stock. The inventory API is GET ${inventory.baseUrl}/inventory ` +
      "(JSON). Use the tools to read it and math_eval for arithmetic.",
  )
  .maxIterations(6)
  .includeContent();

await context.addRoutes((r) => {
  r.from("http:/ask?httpMethodRestrict=POST")
    .routeId("ask")
    .process((exchange) => {
      const question = (exchange.body as { question?: unknown } | null)?.question;
      if (typeof question === "string" && question.trim() !== "") exchange.body = question;
      else {
        exchange.headers[HTTP_HEADERS.status] = 400;
        exchange.body = { error: 'expected a JSON body like {"question": "..."}' };
      }
    })
    .filter((exchange): exchange is Exchange<string> => typeof exchange.body === "string")
    .to(assistant.uri())
    .setBody((exchange) => ({
      answer: exchange.body,
      model: exchange.headers[LLM_HEADERS.model],
      stopReason: exchange.headers[LLM_HEADERS.stopReason],
      toolCalls: exchange.headers[LLM_HEADERS.toolCalls],
    }));
});
// #endregion

console.log("1. tool routes (mounted with the wrapper classes):");
for (const tool of context.tools.list())
  console.log(`   ${tool.name.padEnd(14)} ${shorten(tool.description, 90)}`);

console.log("\n2. enrichment: timer -> httpFetch -> jsonPath -> log (no LLM)");
const enriched = context.endpoint("mock:enriched").expectedMessageCount(skus.length);
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
if (response.status !== 200) process.exitCode = 1;

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
