import { createContext, createMemoryCheckpointStore, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  createTool,
  LLM_RUN_ID_HEADER,
  type LlmStream,
  llm,
  llmPlugin,
  openAiChat,
  runToolLoop,
} from "../src/index.js";
import type { ToolDeadLetter } from "../src/internal.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";
import { openAiTextReply, openAiToolCallReply } from "./support/openai-server.js";

let context: RouteContext | undefined;
let server: LoopbackServer | undefined;
afterEach(async () => {
  await context?.stop();
  await server?.close();
  context = undefined;
  server = undefined;
});

/** The tool message content the model was sent in request `index`. */
function toolContents(index: number): string[] {
  const body = server?.requests[index]?.body as { messages: Array<{ role: string; content: string }> };
  return body.messages.filter((message) => message.role === "tool").map((message) => message.content);
}

const CALL_THEN_ANSWER = [
  { json: openAiToolCallReply([{ id: "call_1", name: "dump", arguments: "{}" }]) },
  { json: openAiTextReply("done") },
];

describe("tool results longer than the limit are cut with a note the model reads", () => {
  it("cuts a route tool's result at the step's maxToolResultChars", async () => {
    server = await startLoopbackServer(CALL_THEN_ANSWER);
    const created = createContext();
    context = created;
    created.use(
      llmPlugin({
        models: { openai: openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" }) },
      }),
    );
    await created.addRoutes((r) => {
      r.from("direct:dump")
        .asLlmTool("dump", { description: "Dumps a log." })
        .setBody(() => "a".repeat(100));
      r.from("direct:ask").to(llm("openai").tools("dump").maxToolResultChars(40).uri());
    });
    await created.start();

    const exchange = await created.requestExchange("direct:ask", { body: "dump the log" });

    expect(exchange.body).toBe("done");
    expect(toolContents(1)).toEqual([
      `${"a".repeat(40)}\n[result of tool 'dump' cut: 60 of 100 characters were left out because a tool result may hold at most 40 characters]`,
    ]);
  });

  it("a tool's own maxResultChars wins over the step's; the default keeps 32000 characters", async () => {
    server = await startLoopbackServer([
      {
        json: openAiToolCallReply([
          { id: "call_1", name: "dump", arguments: "{}" },
          { id: "call_2", name: "big", arguments: "{}" },
        ]),
      },
      { json: openAiTextReply("done") },
    ]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" });
    const dump = createTool({
      name: "dump",
      maxResultChars: 10,
      execute: () => "b".repeat(50),
    });
    const big = createTool({ name: "big", execute: () => "c".repeat(40_000) });

    await runToolLoop({
      model,
      tools: new Map([
        ["dump", dump],
        ["big", big],
      ]),
      input: "go",
    });

    const [first, second] = toolContents(1);
    expect(first?.startsWith(`${"b".repeat(10)}\n[result of tool 'dump' cut: 40 of 50 characters`)).toBe(
      true,
    );
    expect(second?.startsWith(`${"c".repeat(32_000)}\n[result of tool 'big' cut: 8000 of 40000`)).toBe(true);
  });

  it("refuses a limit that is not a whole number of characters", () => {
    expect(() => createTool({ name: "dump", maxResultChars: 0, execute: () => "" })).toThrow(
      "tool 'dump': option 'maxResultChars' must be an integer >= 1, got 0",
    );
    expect(() => llmPlugin({ models: {}, maxToolResultChars: 2.5 })).toThrow(
      "llmPlugin: option 'maxToolResultChars' must be an integer >= 1 (found 2.5)",
    );
  });
});

describe("failed tool calls go to the tool dead-letter endpoint", () => {
  it("sends the run id, tool and arguments after the tool route's retries, beside the error result", async () => {
    server = await startLoopbackServer([
      { json: openAiToolCallReply([{ id: "call_1", name: "charge", arguments: '{"cents":1250}' }]) },
      { json: openAiTextReply("the charge failed") },
    ]);
    const created = createContext();
    context = created;
    created.use(
      llmPlugin({
        models: { openai: openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" }) },
      }),
    );
    const letters: ToolDeadLetter[] = [];
    let attempts = 0;
    await created.addRoutes((r) => {
      r.from("direct:charge")
        .asLlmTool("charge", { description: "Charges." })
        .errorHandler({ maximumRedeliveries: 2, redeliveryDelay: 1 })
        .process(() => {
          attempts += 1;
          throw new Error("card declined");
        });
      r.from("direct:tool-failures").process((exchange) => {
        letters.push(exchange.body as ToolDeadLetter);
      });
      r.from("direct:ask")
        .routeId("ask")
        .to(llm("openai").tools("charge").toolDeadLetterUri("direct:tool-failures").uri());
    });
    await created.start();

    const exchange = await created.requestExchange("direct:ask", {
      body: "charge it",
      headers: { [LLM_RUN_ID_HEADER]: "run-7" },
    });

    expect(exchange.body).toBe("the charge failed");
    expect(attempts).toBe(3);
    expect(letters).toEqual([
      {
        runId: "run-7",
        routeId: "ask",
        exchangeId: exchange.id,
        toolName: "charge",
        callId: "call_1",
        arguments: '{"cents":1250}',
        error: { name: "Error", message: "card declined" },
      },
    ]);
    expect(toolContents(1)[0]).toContain("error");
  });

  /** A context whose 'charge' tool always fails; dead letters are delivered after `delayMs`. */
  async function failingCharge(options: { delayMs: number; durable?: boolean }) {
    const created = createContext();
    context = created;
    created.use(
      llmPlugin({
        models: {
          openai: openAiChat({
            model: "gpt-4o-mini",
            baseURL: server?.url ?? "",
            apiKey: "sk-test",
          }),
        },
        toolDeadLetterUri: "direct:tool-failures",
        ...(options.durable === true && {
          durable: { store: createMemoryCheckpointStore(), recoverEveryMs: 0, approvals: "mock:approvals" },
        }),
      }),
    );
    const letters: ToolDeadLetter[] = [];
    await created.addRoutes((r) => {
      r.from("direct:charge")
        .asLlmTool("charge", {
          description: "Charges.",
          ...(options.durable === true && { durability: { needsApproval: true } }),
        })
        .process(() => {
          throw new Error("card declined");
        });
      r.from("direct:tool-failures").process(async (exchange) => {
        await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        letters.push(exchange.body as ToolDeadLetter);
      });
    });
    return { created, letters };
  }

  it("a streamed step sends them too, and hands its answer on once they were delivered", async () => {
    server = await startLoopbackServer([
      { json: openAiToolCallReply([{ id: "call_1", name: "charge", arguments: '{"cents":1250}' }]) },
      { json: openAiTextReply("the charge failed") },
    ]);
    const { created, letters } = await failingCharge({ delayMs: 100 });
    await created.addRoutes((r) =>
      r.from("direct:ask").routeId("ask").to(llm("openai").tools("charge").stream().uri()),
    );
    await created.start();
    const lettersAtEnd: number[] = [];
    created.events.on("llm-run-completed", () => lettersAtEnd.push(letters.length));

    const exchange = await created.requestExchange("direct:ask", { body: "charge it" });
    const stream = exchange.body as LlmStream;
    expect(await stream.text).toBe("the charge failed");

    await expect.poll(() => lettersAtEnd).toEqual([1]);
    expect(letters).toEqual([
      {
        runId: exchange.id,
        routeId: "ask",
        exchangeId: exchange.id,
        toolName: "charge",
        callId: "call_1",
        arguments: '{"cents":1250}',
        error: { name: "Error", message: "card declined" },
      },
    ]);
  });

  it("a durable run resumed after an approval sends them, and its resume waits for them", async () => {
    server = await startLoopbackServer([
      { json: openAiToolCallReply([{ id: "call_1", name: "charge", arguments: '{"cents":99}' }]) },
      { json: openAiTextReply("the charge failed") },
    ]);
    const { created, letters } = await failingCharge({ delayMs: 100, durable: true });
    await created.addRoutes((r) =>
      r.from("direct:ask").routeId("ask").to(llm("openai").tools("charge").durable().uri()),
    );
    await created.start();

    const parked = await created.requestExchange("direct:ask", {
      body: "charge it",
      headers: { [LLM_RUN_ID_HEADER]: "run-9" },
    });
    expect(parked.body).toMatchObject({ status: "parked" });
    const outcome = await created.agents.approve("run-9", "call_1", { approved: true });

    expect(outcome).toMatchObject({ status: "completed", result: { text: "the charge failed" } });
    expect(letters).toEqual([
      {
        runId: "run-9",
        routeId: "ask",
        exchangeId: "run-9",
        toolName: "charge",
        callId: "call_1",
        arguments: '{"cents":99}',
        error: { name: "Error", message: "card declined" },
      },
    ]);
  });
});
