// The quickstart's agent run, traced with OpenTelemetry: POST /ask, the route, the llm step's chat
// turns and tool calls, each tool route. Prints the span tree and the token usage metric.
// Run: pnpm exec tsx examples/tracing/main.ts (replays the quickstart's transcript without a key).
import { metrics, context as otelContext, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { type Histogram, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { createContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { llm, llmPlugin } from "@routekit/llm";
import { HttpFetchTool, JsonPathTool, MathEvalTool } from "@routekit/llm-tools";
import { otelPlugin } from "@routekit/otel";
import { chooseModel } from "../quickstart/choose-model.js";
import { startInventoryServer } from "../quickstart/inventory-server.js";
import { formatSpanTree } from "./span-tree.js";

/** A metric reader that reads when asked, to print the metrics once at the end. */
class ReadOnDemand extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

// #region sdk
// The SDK, set up once per process before the context starts (here: spans kept in memory; in
// production an OTLP exporter and a batch processor).
otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(tracerProvider);
const reader = new ReadOnDemand();
const meterProvider = new MeterProvider({ readers: [reader] });
metrics.setGlobalMeterProvider(meterProvider);
// #endregion

const inventory = await startInventoryServer(47123).catch(() => startInventoryServer(0));
const chosen = chooseModel(inventory.baseUrl);
console.log(`model: ${chosen.description}\n`);

// #region plugin
const context = createContext({ logLevel: "warn" });
context.use(otelPlugin()); // the global providers registered above
context.use(llmPlugin({ models: { assistant: chosen.model } }));
context.use(httpPlugin({ host: "127.0.0.1", port: 0 }));
// #endregion

const fetchOptions = { allowPrivateNetwork: true, hostAllowlist: ["127.0.0.1"] };
await context.addRoutes(new HttpFetchTool(fetchOptions));
await context.addRoutes(new JsonPathTool());
await context.addRoutes(new MathEvalTool());
await context.addRoutes((r) => {
  r.from("http:/ask?httpMethodRestrict=POST")
    .routeId("ask")
    .setBody("${body.question}")
    .to(
      llm("assistant")
        .tools("http_fetch", "json_path", "math_eval")
        .systemPrompt(
          `You answer questions about our stock. The inventory API is GET ${inventory.baseUrl}/inventory ` +
            "(JSON). Use the tools to read it and math_eval for arithmetic.",
        )
        .maxIterations(6)
        .uri(),
    );
});
await context.start();

const response = await fetch(`${httpServerOf(context).url}/ask`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    question: "How many widgets do we have in stock across all warehouses, and what are they worth?",
  }),
});
console.log(`HTTP ${response.status}: ${await response.text()}\n`);
await context.stop();
await inventory.close();

// #region print
console.log(formatSpanTree(exporter.getFinishedSpans()));
const { resourceMetrics } = await reader.collect();
for (const metric of resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)) {
  if (metric.descriptor.name !== "gen_ai.client.token.usage") continue;
  for (const point of metric.dataPoints) {
    const { sum, count } = point.value as Histogram;
    console.log(
      `${metric.descriptor.name} ${point.attributes["gen_ai.token.type"]}: ${sum} tokens in ${count} calls`,
    );
  }
}
// #endregion
await tracerProvider.shutdown();
await meterProvider.shutdown();
