// The gateway process: `POST /ask` runs an llm step whose tool `record_part` is a route that sends
// the part over RabbitMQ to the worker and returns its answer. The same tool is served over MCP
// (Streamable HTTP, on the http: routes' server), the console shows the routes and the agent runs,
// and everything is traced with OpenTelemetry.
// Usage: tsx examples/everything-at-once/gateway.ts <model-base-url> <parts-queue> <mcp-token>
import { amqpPlugin } from "@routekit/amqp";
import { consoleOf, consolePlugin } from "@routekit/console";
import { createContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { llm, llmPlugin, openAiChat } from "@routekit/llm";
import { mcpServer } from "@routekit/mcp";
import { otelPlugin } from "@routekit/otel";
import { TEMPORARY_QUEUE } from "./order-parts.js";
import { printForTest, recordFailures, startTracing, stopOnSigterm } from "./process-report.js";

const [modelUrl, partsQueue, token] = process.argv.slice(2);
if (modelUrl === undefined || partsQueue === undefined || token === undefined) {
  console.error("usage: gateway.ts <model-base-url> <parts-queue> <mcp-token>");
  process.exit(2);
}

const tracing = startTracing();
const context = createContext({ logLevel: "warn" });
context.use(otelPlugin()); // first, as the observability guide says
context.use(amqpPlugin({ url: "amqp://guest:guest@127.0.0.1:5672" }));
context.use(
  llmPlugin({
    models: { clerk: openAiChat({ model: "gpt-4o-mini", baseURL: modelUrl, apiKey: "loopback" }) },
  }),
);
context.use(httpPlugin({ host: "127.0.0.1", port: 0 })); // before mcpServer: its endpoint mounts here
context.use(mcpServer({ transport: "http", mount: "http", path: "/mcp", tools: ["record_part"], token }));
context.use(consolePlugin({ record: "always" }));
const failures = recordFailures(context);

await context.addRoutes((r) => {
  r.from("direct:tool.record_part")
    .routeId("record-part")
    .asLlmTool("record_part", {
      description: "Record one part of an order; answers with what was recorded.",
      input: {
        type: "object",
        properties: {
          order: { type: "string", description: "the order id, like o-1" },
          part: { type: "string", description: "the part, like wheel" },
        },
        required: ["order", "part"],
        additionalProperties: false,
      },
    })
    // The tool's exchange is InOut, so this is a request: the worker's route answers it.
    .to(`amqp:queue:${partsQueue}?${TEMPORARY_QUEUE}&requestTimeout=15000`);

  r.from("http:/ask?httpMethodRestrict=POST")
    .routeId("ask")
    .setBody("${body.question}")
    .to(llm("clerk").tools("record_part").maxIterations(5).uri());
});
await context.start();

stopOnSigterm({ context, tracing, failures, release: async () => {}, details: () => ({}) });
printForTest({ ready: { httpUrl: httpServerOf(context).url, consoleUrl: consoleOf(context)?.url } });
