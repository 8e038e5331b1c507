import {
  type CheckpointStore,
  createContext,
  createMemoryCheckpointStore,
  type RouteContext,
} from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  LLM_RUN_ID_HEADER,
  LLM_RUN_STATUS_HEADER,
  LLM_THREAD_ID_HEADER,
  llm,
  llmPlugin,
  openAiChat,
} from "../src/index.js";
import { trimToBudget } from "../src/internal.js";
import { TOOL_EFFECT_KEY_HEADER } from "../src/tool-contract.js";
import {
  type LoopbackServer,
  type RecordedRequest,
  type Reply,
  startLoopbackServer,
} from "./support/loopback-server.js";
import { openAiTextReply, openAiToolCallReply } from "./support/openai-server.js";

/** The turn a chat request asks for: one more than the tool answers already in its conversation. */
function turnOf(request: RecordedRequest): number {
  const messages = (request.body as { messages: Array<{ role: string }> }).messages;
  return messages.filter((message) => message.role === "assistant").length + 1;
}

/** A loopback model: turn 1 looks up and charges, turn 2 refunds, turn 3 answers; counts requests per turn. */
function agentModel(hold: { turn?: number; released?: Promise<void>; reached?: () => void }) {
  const perTurn = new Map<number, number>();
  const respond = async (request: RecordedRequest): Promise<Reply> => {
    const turn = turnOf(request);
    perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
    if (hold.turn === turn && hold.released !== undefined) {
      const released = hold.released;
      hold.released = undefined;
      hold.reached?.();
      await released;
      return "hang";
    }
    if (turn === 1) {
      return {
        json: openAiToolCallReply([
          { id: "call_lookup", name: "lookup", arguments: '{"order":"A-1"}' },
          { id: "call_charge", name: "charge", arguments: '{"order":"A-1","cents":1250}' },
        ]),
      };
    }
    if (turn === 2)
      return {
        json: openAiToolCallReply([{ id: "call_refund", name: "refund", arguments: '{"order":"A-1"}' }]),
      };
    return { json: openAiTextReply("charged and refunded A-1") };
  };
  return { perTurn, respond };
}

interface Effects {
  byKey: Map<string, number>;
}

async function agentContext(
  server: LoopbackServer,
  store: CheckpointStore,
  effects: Effects,
  options: { leaseMs?: number; approvals?: string; approvalTimeoutMs?: number; instanceId: string },
): Promise<RouteContext> {
  const context = createContext();
  context.use(
    llmPlugin({
      models: {
        m: openAiChat({
          model: "gpt-4o-mini",
          apiKey: "sk-test",
          baseURL: server.url,
          maxRetries: 0,
        }),
      },
      durable: { store, recoverEveryMs: 0, replyTo: "mock:answers", ...options },
    }),
  );
  const effect = (name: string) => (exchange: { headers: Record<string, unknown>; body: unknown }) => {
    const key = `${name}:${String(exchange.headers[TOOL_EFFECT_KEY_HEADER])}`;
    effects.byKey.set(key, (effects.byKey.get(key) ?? 0) + 1);
    exchange.body = { ok: true, tool: name };
  };
  await context.addRoutes((r) => {
    r.from("direct:lookup")
      .asLlmTool("lookup", { description: "Looks an order up." })
      .process(effect("lookup"));
    r.from("direct:charge")
      .asLlmTool("charge", { description: "Charges an order.", durability: { effect: "once" } })
      .process(effect("charge"));
    r.from("direct:refund")
      .asLlmTool("refund", {
        description: "Refunds an order.",
        durability: { needsApproval: true, effect: "once" },
      })
      .process(effect("refund"));
    r.from("direct:agent").to(llm("m").tools("lookup", "charge", "refund").durable().uri());
  });
  await context.start();
  return context;
}

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe("durable llm runs", () => {
  it("parks for approval, resumes on another instance, and never repeats a turn or an effect", async () => {
    const model = agentModel({});
    const server = await startLoopbackServer((request) => model.respond(request));
    cleanup.push(() => server.close());
    const store = createMemoryCheckpointStore();
    const effects: Effects = { byKey: new Map() };
    const first = await agentContext(server, store, effects, {
      instanceId: "a",
      approvals: "seda:approvals",
    });
    cleanup.push(() => first.stop());
    const second = await agentContext(server, store, effects, { instanceId: "b" });
    cleanup.push(() => second.stop());
    const requests: unknown[] = [];
    await first.addRoutes((r) =>
      r.from("seda:approvals").process((exchange) => void requests.push(exchange.body)),
    );

    const parked = await first.requestExchange("direct:agent", {
      body: "charge A-1, then refund it",
      headers: { [LLM_RUN_ID_HEADER]: "run-1" },
    });
    expect(parked.error).toBeUndefined();
    expect(parked.headers[LLM_RUN_STATUS_HEADER]).toBe("parked");
    expect(parked.body).toMatchObject({
      runId: "run-1",
      status: "parked",
      pending: [{ callId: "call_refund", toolName: "refund" }],
    });
    await expect.poll(() => requests.length).toBe(1);
    expect(requests[0]).toMatchObject({
      runId: "run-1",
      callId: "call_refund",
      arguments: '{"order":"A-1"}',
    });
    expect((await second.agents.get("run-1"))?.status).toBe("parked");

    // The answer arrives at the other instance, which finishes the run and sends the answer on.
    const outcome = await second.agents.approve("run-1", "call_refund", { approved: true, by: "ops" });
    expect(outcome).toMatchObject({
      status: "completed",
      result: { text: "charged and refunded A-1", iterations: 3, toolCalls: 3 },
    });
    const answers = second.endpoint("mock:answers");
    expect(answers.received.map((exchange) => exchange.body)).toEqual(["charged and refunded A-1"]);
    expect(answers.received[0]?.headers[LLM_RUN_ID_HEADER]).toBe("run-1");

    expect(Object.fromEntries(model.perTurn)).toEqual({ 1: 1, 2: 1, 3: 1 });
    expect(Object.fromEntries(effects.byKey)).toEqual({
      "lookup:run-1:1:call_lookup": 1,
      "charge:run-1:1:call_charge": 1,
      "refund:run-1:2:call_refund": 1,
    });
    // A redelivered request for the ended run answers from the store without calling the model.
    const again = await first.requestExchange("direct:agent", {
      body: "charge A-1, then refund it",
      headers: { [LLM_RUN_ID_HEADER]: "run-1" },
    });
    expect(again.body).toBe("charged and refunded A-1");
    expect(Object.fromEntries(model.perTurn)).toEqual({ 1: 1, 2: 1, 3: 1 });
    await expect(second.agents.approve("run-1", "call_refund", { approved: true })).rejects.toThrow(
      /has ended \(completed\)/,
    );
  });

  it("a denied call is an error result the model reads", async () => {
    const model = agentModel({});
    const server = await startLoopbackServer((request) => model.respond(request));
    cleanup.push(() => server.close());
    const effects: Effects = { byKey: new Map() };
    const context = await agentContext(server, createMemoryCheckpointStore(), effects, { instanceId: "a" });
    cleanup.push(() => context.stop());
    await context.requestExchange("direct:agent", { body: "go", headers: { [LLM_RUN_ID_HEADER]: "run-2" } });
    const outcome = await context.agents.approve("run-2", "call_refund", {
      approved: false,
      reason: "refunds need a ticket",
    });
    expect(outcome).toMatchObject({ status: "completed" });
    const toolTurn = server.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> };
    const refusal = toolTurn.messages.filter((message) => message.role === "tool").at(-1);
    expect(refusal?.content).toContain("not approved: refunds need a ticket");
    expect(effects.byKey.has("refund:run-2:2:call_refund")).toBe(false);
  });

  it("an approval nobody answers times out as a denial at the recovery pass", async () => {
    const model = agentModel({});
    const server = await startLoopbackServer((request) => model.respond(request));
    cleanup.push(() => server.close());
    const context = await agentContext(
      server,
      createMemoryCheckpointStore(),
      { byKey: new Map() },
      { instanceId: "a", approvalTimeoutMs: 1 },
    );
    cleanup.push(() => context.stop());
    await context.requestExchange("direct:agent", { body: "go", headers: { [LLM_RUN_ID_HEADER]: "run-3" } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await context.agents.recover()).toEqual(["run-3"]);
    const record = await context.agents.get("run-3");
    expect(record?.status).toBe("completed");
    const lastTool = record?.state.messages.filter((message) => message.role === "tool").at(-1);
    expect(JSON.stringify(lastTool)).toContain("no answer within 1 ms");
  });

  it("a run cut off during a model call resumes from its checkpoint on another instance after the lease ends", async () => {
    let release!: () => void;
    let reached!: () => void;
    const atHold = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const hold = {
      turn: 2,
      released: new Promise<void>((resolve) => {
        release = resolve;
      }),
      reached,
    };
    const model = agentModel(hold);
    const server = await startLoopbackServer((request) => model.respond(request));
    cleanup.push(() => server.close());
    const store = createMemoryCheckpointStore();
    const effects: Effects = { byKey: new Map() };
    const first = await agentContext(server, store, effects, { instanceId: "a", leaseMs: 300 });
    const running = first.requestExchange("direct:agent", {
      body: "go",
      headers: { [LLM_RUN_ID_HEADER]: "run-4" },
    });
    await atHold;
    // The instance goes away in the middle of turn 2's model call.
    await expect(first.stop({ timeoutMs: 10 })).rejects.toThrow(/Stop timed out/);
    release();
    await running.catch(() => undefined);
    expect((await store.get("run-4"))?.status).toBe("running");

    const second = await agentContext(server, store, effects, { instanceId: "b", leaseMs: 300 });
    cleanup.push(() => second.stop());
    // Within the lease the run is the first instance's; after it, recovery takes it up.
    expect(await second.agents.recover()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await second.agents.recover()).toEqual(["run-4"]);
    // Turn 2 parks on the refund's approval; answering finishes the run.
    await second.agents.approve("run-4", "call_refund", { approved: true });
    expect((await store.get("run-4"))?.status).toBe("completed");
    // Turn 1, checkpointed, was never sent again; turn 2 at most twice (once cut off, once answered).
    expect(Object.fromEntries(model.perTurn)).toEqual({ 1: 1, 2: 2, 3: 1 });
    expect(effects.byKey.get("charge:run-4:1:call_charge")).toBe(1);
  });

  it("an answer given again resumes a run whose answerer died; recovery resumes it too; a different answer is refused", async () => {
    const model = agentModel({});
    const server = await startLoopbackServer((request) => model.respond(request));
    cleanup.push(() => server.close());
    const store = createMemoryCheckpointStore();
    const effects: Effects = { byKey: new Map() };
    const context = await agentContext(server, store, effects, { instanceId: "a" });
    cleanup.push(() => context.stop());
    /** Parks run `runId`, then writes an approval the way an instance does before it died resuming. */
    const parkAndAnswer = async (runId: string): Promise<void> => {
      await context.requestExchange("direct:agent", { body: "go", headers: { [LLM_RUN_ID_HEADER]: runId } });
      const record = await store.get(runId);
      if (record === undefined) throw new Error(`no run ${runId}`);
      const state = record.state as { approvals: Record<string, object> };
      const approvals = { call_refund: { ...state.approvals.call_refund, status: "approved", by: "ops" } };
      expect(
        await store.write({ ...record, version: record.version + 1, state: { ...state, approvals } }),
      ).toBe(true);
    };
    await parkAndAnswer("run-7");
    // The same answer again (the answer message redelivered): the run is resumed here.
    await expect(
      context.agents.approve("run-7", "call_refund", { approved: false, reason: "changed my mind" }),
    ).rejects.toThrow("call 'call_refund' of run 'run-7' was already approved");
    const outcome = await context.agents.approve("run-7", "call_refund", { approved: true });
    expect(outcome).toMatchObject({ status: "completed", result: { text: "charged and refunded A-1" } });
    expect(effects.byKey.get("refund:run-7:2:call_refund")).toBe(1);

    // Nobody answers again: the recovery pass finds the parked run with every answer in.
    await parkAndAnswer("run-8");
    expect((await store.get("run-8"))?.status).toBe("parked");
    expect(await context.agents.recover()).toEqual(["run-8"]);
    expect((await store.get("run-8"))?.status).toBe("completed");
    expect(effects.byKey.get("refund:run-8:2:call_refund")).toBe(1);
    expect(Object.fromEntries(model.perTurn)).toEqual({ 1: 2, 2: 2, 3: 2 });
  });

  it("one instance never works on a run twice at once (a redelivered message while recovery runs it)", async () => {
    let release!: () => void;
    let reached!: () => void;
    const atHold = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = agentModel({ turn: 2, released, reached });
    const server = await startLoopbackServer((request) => model.respond(request));
    cleanup.push(() => server.close());
    const context = await agentContext(
      server,
      createMemoryCheckpointStore(),
      { byKey: new Map() },
      {
        instanceId: "a",
      },
    );
    const running = context.requestExchange("direct:agent", {
      body: "go",
      headers: { [LLM_RUN_ID_HEADER]: "run-9" },
    });
    await atHold;
    // The lease names this instance, yet a second loop here is refused while the first works.
    expect(await context.agents.resume("run-9")).toBe("busy");
    const again = await context.requestExchange("direct:agent", {
      body: "go",
      headers: { [LLM_RUN_ID_HEADER]: "run-9" },
    });
    expect(again.error?.message).toContain("already worked on in this one");
    expect(Object.fromEntries(model.perTurn)).toEqual({ 1: 1, 2: 1 });
    await expect(context.stop({ timeoutMs: 10 })).rejects.toThrow(/Stop timed out/);
    release();
    await running.catch(() => undefined);
  });

  it("a run left running after its final answer was recorded is completed by recovery, without the model", async () => {
    const store = createMemoryCheckpointStore();
    await store.write({
      id: "run-10",
      version: 1,
      status: "running",
      owner: "gone",
      leaseUntil: 0,
      updatedAt: 0,
      state: {
        runId: "run-10",
        endpointUri: "llm:m?tools=lookup,charge,refund&durable=true",
        routeId: "agent",
        messages: [
          { role: "user", content: "go" },
          { role: "assistant", content: "all done" },
        ],
        iteration: 1,
        usage: { inputTokens: 0, outputTokens: 0 },
        toolCalls: 0,
        results: {},
        started: {},
        approvals: {},
      },
    });
    const server = await startLoopbackServer(() => ({ json: openAiTextReply("never asked") }));
    cleanup.push(() => server.close());
    const context = await agentContext(server, store, { byKey: new Map() }, { instanceId: "b" });
    cleanup.push(() => context.stop());
    expect(await context.agents.recover()).toEqual(["run-10"]);
    const record = await store.get("run-10");
    expect(record?.status).toBe("completed");
    expect((record?.state as { text?: string } | undefined)?.text).toBe("all done");
    expect(await context.agents.recover()).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("an effect-once call whose outcome was lost is reported as unknown, not run again", async () => {
    const store = createMemoryCheckpointStore();
    // A run stopped after its charge call started and before its result was written.
    await store.write({
      id: "run-5",
      version: 1,
      status: "running",
      owner: "gone",
      leaseUntil: 0,
      updatedAt: 0,
      state: {
        runId: "run-5",
        endpointUri: "llm:m?tools=lookup,charge,refund&durable=true",
        routeId: "agent",
        messages: [
          { role: "user", content: "charge" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "call_charge", name: "charge", argumentsText: '{"order":"A-1","cents":1}' }],
          },
        ],
        iteration: 1,
        usage: { inputTokens: 0, outputTokens: 0 },
        toolCalls: 0,
        results: {},
        started: { call_charge: true },
        approvals: {},
      },
    });
    const server = await startLoopbackServer(() => ({ json: openAiTextReply("could not tell") }));
    cleanup.push(() => server.close());
    const effects: Effects = { byKey: new Map() };
    const context = await agentContext(server, store, effects, { instanceId: "b" });
    cleanup.push(() => context.stop());
    expect(await context.agents.recover()).toEqual(["run-5"]);
    expect(effects.byKey.size).toBe(0);
    const sent = server.requests[0]?.body as { messages: Array<{ role: string; content: string }> };
    expect(sent.messages.at(-1)?.content).toContain("outcome of this call is unknown");
  });

  it("refuses a durable step without a store, and durable with streaming, naming the endpoint", async () => {
    const context = createContext();
    cleanup.push(() => context.stop());
    context.use(
      llmPlugin({ models: { m: openAiChat({ model: "x", apiKey: "k", baseURL: "http://127.0.0.1:9" }) } }),
    );
    await expect(context.addRoutes((r) => r.from("direct:a").to(llm("m").durable().uri()))).rejects.toThrow(
      /llm:m\?durable=true.*durable runs need a store/,
    );
    const withStore = createContext();
    cleanup.push(() => withStore.stop());
    withStore.use(
      llmPlugin({
        models: { m: openAiChat({ model: "x", apiKey: "k", baseURL: "http://127.0.0.1:9" }) },
        durable: { store: createMemoryCheckpointStore(), recoverEveryMs: 0 },
      }),
    );
    await expect(
      withStore.addRoutes((r) => r.from("direct:a").to(llm("m").durable().stream().uri())),
    ).rejects.toThrow(/durable=true cannot be combined with stream=true/);
    expect(() => llmPlugin({ models: {}, durable: { store: {} as CheckpointStore } })).toThrow(
      /durable'.store expects a checkpoint store/,
    );
  });
});

describe("conversations kept across requests (llm.thread.id)", () => {
  it("continues a thread's messages on any instance and trims the oldest past the budget", async () => {
    const seen: number[] = [];
    const server = await startLoopbackServer((request) => {
      const messages = (request.body as { messages: Array<{ role: string; content: string }> }).messages;
      seen.push(messages.length);
      return {
        json: openAiTextReply(`answer ${messages.filter((message) => message.role === "user").length}`),
      };
    });
    cleanup.push(() => server.close());
    const store = createMemoryCheckpointStore();
    const instances: RouteContext[] = [];
    for (const name of ["a", "b"]) {
      const context = createContext();
      context.use(
        llmPlugin({
          models: { m: openAiChat({ model: "x", apiKey: "k", baseURL: server.url, maxRetries: 0 }) },
          durable: { store, recoverEveryMs: 0, instanceId: name },
        }),
      );
      await context.addRoutes((r) => {
        r.from("direct:chat").to(llm("m").threadTokens(60).uri());
        r.from("direct:durable-chat").to(llm("m").durable().threadTokens(60).uri());
      });
      await context.start();
      cleanup.push(() => context.stop());
      instances.push(context);
    }
    const [a, b] = instances as [RouteContext, RouteContext];
    const thread = { [LLM_THREAD_ID_HEADER]: "t-1" };
    expect(await a.request("direct:chat", "hi", thread)).toBe("answer 1");
    expect(await b.request("direct:chat", "and then?", thread)).toBe("answer 2");
    // The budget (60 tokens) no longer holds the first exchange: the model sees 2 user messages.
    expect(await a.request("direct:durable-chat", "more", thread)).toBe("answer 2");
    // 1, then 3 (hi, answer, and then?), then trimmed: the budget keeps the newest exchanges only.
    expect(seen[0]).toBe(1);
    expect(seen[1]).toBe(3);
    expect(seen[2]).toBeLessThan(5);
    const kept = (await store.get("thread:t-1"))?.state as { messages: Array<{ role: string }> };
    expect(kept.messages[0]?.role).toBe("user");
    expect(kept.messages.at(-1)).toMatchObject({ role: "assistant", content: "answer 2" });
    await expect(a.request("direct:chat", "x", { [LLM_THREAD_ID_HEADER]: 42 })).rejects.toThrow(
      /header 'llm.thread.id' must be a non-empty string/,
    );
  });

  it("trimToBudget never keeps a tool answer without the turn that asked for it", () => {
    const messages = [
      { role: "user" as const, content: "a".repeat(400) },
      { role: "assistant" as const, content: "", toolCalls: [{ id: "c", name: "t", argumentsText: "{}" }] },
      { role: "tool" as const, results: [{ callId: "c", name: "t", output: "1", isError: false }] },
      { role: "assistant" as const, content: "done" },
      { role: "user" as const, content: "next" },
      { role: "assistant" as const, content: "ok" },
    ];
    expect(trimToBudget(messages, 10_000)).toEqual(messages);
    expect(trimToBudget(messages, 30)).toEqual(messages.slice(4));
    expect(trimToBudget(messages, 1)).toEqual(messages.slice(4));
  });
});
