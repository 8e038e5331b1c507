// A second routekit process for the one-trace test: consumes a RabbitMQ queue with otelPlugin()
// on the real SDK, and exports its spans over OTLP/HTTP (JSON) to the parent's loopback receiver.
// Usage: node --import tsx amqp-worker-process.ts <queue-uri> <otlp-url>
import { context as contextApi, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";
import { otelPlugin } from "../../src/index.js";

const [queueUri, otlpUrl] = process.argv.slice(2);
if (queueUri === undefined || otlpUrl === undefined) {
  console.error("usage: amqp-worker-process.ts <queue-uri> <otlp-url>");
  process.exit(2);
}

contextApi.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const provider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: otlpUrl }))],
});
trace.setGlobalTracerProvider(provider);

const context = createContext({ logLevel: "error" });
context.use(amqpPlugin({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } }));
context.use(otelPlugin());
await context.addRoutes((r) => {
  r.from(queueUri).routeId("fulfil").setHeader("fulfilled", "yes").to("direct:archive");
  r.from("direct:archive").routeId("archive").setBody("${body} (archived)");
});
await context.start();
process.stdout.write("ready\n");

process.on("SIGTERM", () => {
  context
    .stop({ timeoutMs: 5_000 })
    .then(() => provider.shutdown())
    .finally(() => process.exit(0));
});
