import {
  type AggregationRepository,
  createContext,
  createMemoryAggregationRepository,
  type Exchange,
  groupedBodies,
  type RouteContext,
} from "@routekit/core";
import type { SharedAggregationRepository } from "@routekit/core/internal";
import { llm, llmPlugin, llmStreamOf, openAiChat } from "@routekit/llm";
import { connectPostgres, type PostgresStore } from "@routekit/postgres";
import { connectRedis, type RedisStore } from "@routekit/redis";
import { afterEach, describe, expect, it } from "vitest";
import {
  postgresAvailable,
  postgresConnection,
  uniquePrefix,
} from "../../postgres/test/support/postgres-server.js";
import { redisAvailable, redisHost, redisPort, uniqueName } from "../../redis/test/support/redis-server.js";
import { otelPlugin, TRACE_SLOT_PROPERTY } from "../src/index.js";
import { type OpenAiLoopback, startOpenAiLoopback } from "./support/openai-loopback.js";
import { startTestSdk, type TestSdk } from "./support/otel-sdk.js";

// Every plugin that puts properties on an exchange (otel's trace slot, the streaming llm step's
// stream) against every aggregation repository: the process-local properties are never stored,
// never copied into the group, and the group completes.

let sdk: TestSdk | undefined;
let context: RouteContext | undefined;
let model: OpenAiLoopback | undefined;
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  for (const close of closers.splice(0)) await close();
  await model?.close();
  await sdk?.shutdown();
  context = undefined;
  model = undefined;
  sdk = undefined;
});

type RepositoryMaker = () => Promise<AggregationRepository | SharedAggregationRepository>;

const memory: RepositoryMaker = async () => createMemoryAggregationRepository();

const redis: RepositoryMaker = async () => {
  const store: RedisStore = await connectRedis({
    host: redisHost,
    port: redisPort,
    keyPrefix: uniqueName("otel-agg"),
  });
  closers.push(() => store.close());
  return store.aggregationRepository("answers");
};

const postgres: RepositoryMaker = async () => {
  const store: PostgresStore = await connectPostgres({
    ...postgresConnection,
    tablePrefix: uniquePrefix("otel_agg"),
    migrate: true,
  });
  closers.push(() => store.close());
  return store.aggregationRepository("answers");
};

const stores: Array<[string, RepositoryMaker, boolean]> = [
  ["in memory", memory, true],
  ["Redis", redis, redisAvailable],
  ["PostgreSQL", postgres, postgresAvailable],
];

describe.each(stores)("otel and a streaming llm step before an aggregator %s", (_name, make, available) => {
  it.skipIf(!available)("completes the group, and the group holds no process-local property", async () => {
    model = await startOpenAiLoopback([{ stream: ["Hel", "lo"] }, { stream: ["Bye"] }]);
    sdk = startTestSdk();
    context = createContext({ logLevel: "off" });
    context.use(
      llmPlugin({
        models: {
          openai: openAiChat({
            model: "gpt-4o-mini",
            baseURL: model.baseURL,
            apiKey: "sk-test-otel-0123456789",
            stream: true,
          }),
        },
      }),
    );
    context.use(otelPlugin({ tracerProvider: sdk.tracerProvider }));
    const repository = await make();
    const seen: { stream: boolean; slot: boolean }[] = [];
    const groups: Exchange[] = [];
    await context.addRoutes((r) =>
      r
        .from("direct:ask")
        .routeId("ask")
        .to(llm("openai").stream().uri())
        .process(async (exchange) => {
          const stream = llmStreamOf(exchange);
          seen.push({
            stream: stream !== undefined,
            slot: exchange.properties[TRACE_SLOT_PROPERTY] !== undefined,
          });
          (exchange as Exchange).body = await stream?.text;
        })
        .aggregate("${header.conversation}", {
          strategy: groupedBodies(),
          repository,
          completionSize: 2,
        })
        .process((exchange) => {
          groups.push(exchange);
        }),
    );
    await context.start();
    await context.request("direct:ask", "Say hello", { conversation: "c0" });
    await context.request("direct:ask", "Say bye", { conversation: "c0" });
    await expect.poll(() => groups.length).toBe(1);

    // The properties were there while the route ran...
    expect(seen).toEqual([
      { stream: true, slot: true },
      { stream: true, slot: true },
    ]);
    // ...and the group was stored and completed without them.
    const group = groups[0]!;
    expect(group.body).toEqual(["Hello", "Bye"]);
    expect(Object.keys(group.properties)).not.toContain("llm.stream");
    expect(group.properties[TRACE_SLOT_PROPERTY]).toBeUndefined();
    expect(group.properties["aggregate.size"]).toBe(2);
    const spans = sdk.spans().map((span) => span.name);
    expect(spans.filter((name) => name === "process direct:ask")).toHaveLength(2);
  });
});
