import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { propagation, ROOT_CONTEXT, SpanKind, trace } from "@opentelemetry/api";
import { amqpPlugin } from "@routekit/amqp";
import { createContext, type RouteContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { llm, llmPlugin, openAiChat } from "@routekit/llm";
import { servicesMissing } from "@routekit/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import { otelPlugin } from "../src/index.js";
import { type OpenAiLoopback, startOpenAiLoopback } from "./support/openai-loopback.js";
import { parentOf, spanNamed, spanTree, startTestSdk, type TestSdk } from "./support/otel-sdk.js";
import { type OtlpReceiver, startOtlpReceiver } from "./support/otlp-receiver.js";

const brokerAvailable = !(await servicesMissing(["RabbitMQ"]));
const workerScript = fileURLToPath(new URL("./support/amqp-worker-process.ts", import.meta.url));
const packageRoot = fileURLToPath(new URL("..", import.meta.url));

let sdk: TestSdk | undefined;
let context: RouteContext | undefined;
let model: OpenAiLoopback | undefined;
let receiver: OtlpReceiver | undefined;
let worker: ChildProcess | undefined;

afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  if (worker !== undefined && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker?.once("exit", resolve));
    worker.kill("SIGTERM");
    await exited;
  }
  await model?.close();
  await receiver?.close();
  await sdk?.shutdown();
  context = undefined;
  worker = undefined;
  model = undefined;
  receiver = undefined;
  sdk = undefined;
});

/** Starts the worker process; resolves once its route consumes. */
function startWorker(queueUri: string, otlpUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", workerScript, queueUri, otlpUrl], {
    cwd: packageRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  worker = child;
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve(child);
    });
    child.once("exit", (code) =>
      reject(new Error(`the worker exited with ${code} before it was ready: ${errors}`)),
    );
  });
}

describe.skipIf(!brokerAvailable)("one trace across processes", () => {
  it("follows an HTTP request through its route, the agent's chat turns and tool calls, and a RabbitMQ hop into another process", async () => {
    receiver = await startOtlpReceiver();
    const queue = `rk-test-otel-${randomUUID().slice(0, 8)}`;
    const queueUri = `amqp:queue:${queue}?durable=false&autoDelete=true&deadLetter=false`;
    await startWorker(queueUri, receiver.url);

    model = await startOpenAiLoopback([
      {
        toolCalls: [
          { id: "call_a", name: "get_weather", arguments: '{"city":"Oslo"}' },
          { id: "call_b", name: "get_time", arguments: '{"zone":"CET"}' },
        ],
      },
      { text: "Sunny, 12:00." },
    ]);
    sdk = startTestSdk();
    context = createContext({ logLevel: "off" });
    context.use(httpPlugin({ host: "127.0.0.1", port: 0 }));
    context.use(amqpPlugin());
    context.use(
      llmPlugin({
        models: {
          openai: openAiChat({
            model: "gpt-4o-mini",
            baseURL: model.baseURL,
            apiKey: "sk-test-otel-0123456789",
          }),
        },
      }),
    );
    context.use(otelPlugin({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }));
    await context.addRoutes((r) => {
      r.from("http:/ask?httpMethodRestrict=POST")
        .routeId("ask")
        .to(llm("openai").tools("get_weather", "get_time").uri())
        .to(`${queueUri}&exchangePattern=InOnly`);
      r.from("direct:llm.get_weather")
        .routeId("weather")
        .asLlmTool("get_weather", { description: "The weather in a city." })
        .setBody(() => ({ sky: "sunny" }));
      r.from("direct:llm.get_time")
        .routeId("time")
        .asLlmTool("get_time", { description: "The time in a zone." })
        .setBody(() => "12:00");
    });
    await context.start();

    // The caller traces too: its span is the root, sent as a W3C traceparent header.
    const caller = sdk.tracerProvider
      .getTracer("test-client")
      .startSpan("client POST /ask", { kind: SpanKind.CLIENT });
    const headers: Record<string, string> = { "content-type": "text/plain" };
    propagation.inject(trace.setSpan(ROOT_CONTEXT, caller), headers);
    const response = await fetch(`${httpServerOf(context).url}/ask`, {
      method: "POST",
      headers,
      body: "Weather and time in Oslo?",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("Sunny, 12:00.");
    caller.end();

    await vi.waitFor(
      () => expect(receiver?.spans.map((span) => span.name)).toContain("process amqp:queue:" + queue),
      {
        timeout: 10_000,
      },
    );
    await vi.waitFor(() => expect(receiver?.spans).toHaveLength(3), { timeout: 10_000 });

    const local = sdk.spans();
    expect(spanTree(local)).toBe(
      [
        "client POST /ask",
        "  POST /ask",
        "    invoke_agent ask",
        "      chat gpt-4o-mini",
        "      execute_tool get_weather",
        "        process direct:llm.get_weather",
        "      execute_tool get_time",
        "        process direct:llm.get_time",
        "      chat gpt-4o-mini",
        `    send amqp:queue:${queue}`,
      ].join("\n"),
    );
    const traceId = caller.spanContext().traceId;
    for (const span of local) expect(span.spanContext().traceId).toBe(traceId);
    const server = spanNamed(local, "POST /ask");
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(parentOf(server)).toBe(caller.spanContext().spanId);
    const send = spanNamed(local, `send amqp:queue:${queue}`);
    expect(send.kind).toBe(SpanKind.PRODUCER);
    expect(send.attributes).toMatchObject({
      "messaging.system": "rabbitmq",
      "messaging.operation.type": "send",
    });

    // The other process's spans, as its OTLP/HTTP exporter sent them.
    expect(receiver.refused).toEqual([]);
    const remote = receiver.spans;
    for (const span of remote) expect(span.traceId).toBe(traceId);
    const consumed = remote.find((span) => span.name === `process amqp:queue:${queue}`);
    expect(consumed?.kind).toBe(5);
    expect(consumed?.parentSpanId).toBe(send.spanContext().spanId);
    expect(consumed?.scope).toBe("@routekit/otel");
    expect(consumed?.attributes).toMatchObject({
      "messaging.system": "rabbitmq",
      "messaging.destination.name": `queue:${queue}`,
      "messaging.operation.type": "process",
      "routekit.route.id": "fulfil",
    });
    const archiveSend = remote.find((span) => span.name === "send direct:archive");
    expect(archiveSend?.kind).toBe(4);
    expect(archiveSend?.parentSpanId).toBe(consumed?.spanId);
    const archive = remote.find((span) => span.name === "process direct:archive");
    expect(archive?.parentSpanId).toBe(archiveSend?.spanId);

    // Everything started is released: the worker stops cleanly on SIGTERM.
    const child = worker;
    const exit = new Promise<number | null>((resolve) => child?.once("exit", resolve));
    child?.kill("SIGTERM");
    expect(await exit).toBe(0);
  });
});
