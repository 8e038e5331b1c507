import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CheckpointStore,
  createContext,
  createMemoryCheckpointStore,
  type RouteContext,
} from "@routekit/core";
import { LLM_RUN_ID_HEADER, llm, llmPlugin, openAiChat } from "@routekit/llm";
import { connectPostgres } from "@routekit/postgres";
import { connectRedis } from "@routekit/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Durable runs across two contexts (two instances) on each store: the approval is asked for on
// one and answered on the other, which finishes the run.

interface ChatRequest {
  messages: Array<{ role: string; content?: string | null }>;
}

let server: Server;
let modelUrl: string;
const turns = new Map<string, number>();

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const chat = JSON.parse(Buffer.concat(chunks).toString()) as ChatRequest;
      const runId = String(chat.messages[0]?.content);
      const turn = chat.messages.filter((message) => message.role === "assistant").length + 1;
      turns.set(`${runId}:${turn}`, (turns.get(`${runId}:${turn}`) ?? 0) + 1);
      const message =
        turn === 1
          ? {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: "call_wire", type: "function", function: { name: "wire", arguments: '{"cents":500}' } },
              ],
            }
          : { role: "assistant", content: `${runId} done: ${chat.messages.at(-1)?.content}` };
      const body = JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: "m",
        choices: [{ index: 0, message, finish_reason: turn === 1 ? "tool_calls" : "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  modelUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function instance(
  store: CheckpointStore,
  name: string,
  wires: string[],
  approvalTimeoutMs?: number,
): Promise<RouteContext> {
  const context = createContext();
  context.use(
    llmPlugin({
      models: { m: openAiChat({ model: "m", apiKey: "local", baseURL: modelUrl, maxRetries: 0 }) },
      durable: {
        store,
        instanceId: name,
        approvals: "seda:approvals",
        recoverEveryMs: 0,
        replyTo: "mock:answers",
        ...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }),
      },
    }),
  );
  await context.addRoutes((r) => {
    r.from("direct:wire")
      .asLlmTool("wire", { description: "Wires money.", durability: { needsApproval: true, effect: "once" } })
      .process((exchange) => {
        wires.push(`${name}:${String(exchange.headers["routekit.effectKey"])}`);
        exchange.body = "wired";
      });
    r.from("direct:agent").to(llm("m").tools("wire").durable().uri());
    r.from<{ runId: string; callId: string }>("seda:approvals").to("mock:requests");
  });
  await context.start();
  return context;
}

const stores: Array<[string, () => Promise<{ store: CheckpointStore; close: () => Promise<void> }>]> = [
  ["memory", async () => ({ store: createMemoryCheckpointStore(), close: async () => {} })],
  [
    "Redis",
    async () => {
      const redis = await connectRedis({
        host: "127.0.0.1",
        port: 6379,
        keyPrefix: `durable-${process.pid}-${Date.now()}`,
      });
      return { store: redis.checkpointStore("runs"), close: () => redis.close() };
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const postgres = await connectPostgres({
        host: "127.0.0.1",
        port: 5432,
        database: "postgres",
        user: "postgres",
        tablePrefix: `durable_${process.pid}_`,
        migrate: true,
      });
      return {
        store: postgres.checkpointStore("runs"),
        close: async () => {
          await postgres.dropTables();
          await postgres.close();
        },
      };
    },
  ],
];

describe.each(stores)("durable runs on the %s store, across two instances", (_name, open) => {
  it("asks on A, is approved on B, finishes on B; a denial and a timeout become results the model reads", async () => {
    const { store, close } = await open();
    const wires: string[] = [];
    const a = await instance(store, "a", wires);
    const b = await instance(store, "b", wires, 1);
    try {
      const runId = `run-${_name}-${Date.now()}`;
      const parked = await a.requestExchange("direct:agent", {
        body: runId,
        headers: { [LLM_RUN_ID_HEADER]: runId },
      });
      expect(parked.body).toMatchObject({ status: "parked", runId });
      await expect.poll(() => a.endpoint("mock:requests").received.length).toBe(1);
      const request = a.endpoint("mock:requests").received[0]?.body as {
        runId: string;
        callId: string;
        toolName: string;
      };
      expect(request).toMatchObject({ runId, callId: "call_wire", toolName: "wire" });
      // B answers: it resumes the run, runs the approved call and sends the answer on.
      const outcome = await b.agents.approve(request.runId, request.callId, { approved: true, by: "ops" });
      expect(outcome).toMatchObject({ status: "completed", result: { text: `${runId} done: wired` } });
      expect(wires).toEqual([`b:${runId}:1:call_wire`]);
      expect(b.endpoint("mock:answers").received.map((exchange) => exchange.body)).toEqual([
        `${runId} done: wired`,
      ]);
      expect((await a.agents.get(runId))?.status).toBe("completed");
      expect([turns.get(`${runId}:1`), turns.get(`${runId}:2`)]).toEqual([1, 1]);

      const denied = `denied-${runId}`;
      await a.requestExchange("direct:agent", { body: denied, headers: { [LLM_RUN_ID_HEADER]: denied } });
      await b.agents.approve(denied, "call_wire", { approved: false, reason: "over the limit" });
      expect((await b.agents.get(denied))?.state.text).toContain("not approved: over the limit");

      const timedOut = `timeout-${runId}`;
      await a.requestExchange("direct:agent", { body: timedOut, headers: { [LLM_RUN_ID_HEADER]: timedOut } });
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await b.agents.recover()).toContain(timedOut);
      expect((await a.agents.get(timedOut))?.state.text).toContain("no answer within 1 ms");
      expect(wires).toHaveLength(1);
      expect((await a.agents.list({ status: "parked" })).map((record) => record.id)).toEqual([]);
    } finally {
      await a.stop();
      await b.stop();
      await close();
    }
  });
});
