import { createContext, type RouteContext, RouteStepError } from "@routekit/core";
import {
  anthropicMessages,
  LlmError,
  llm,
  llmPlugin,
  OutputValidationError,
  openAiChat,
  replayModel,
  toTool,
} from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { anthropicReply } from "./support/anthropic-server.js";
import { bodyOf, type LoopbackServer, messagesOf, startLoopbackServer } from "./support/loopback-server.js";
import { openAiTextReply, openAiToolCallReply } from "./support/openai-server.js";

let context: RouteContext;
let server: LoopbackServer | undefined;
afterEach(async () => {
  await context?.stop();
  await server?.close();
  server = undefined;
});

const orderSchema = {
  type: "object",
  properties: {
    sku: { type: "string" },
    quantity: { type: "integer", minimum: 1 },
  },
  required: ["sku", "quantity"],
  additionalProperties: false,
} as const;

const stockTool = toTool({
  name: "stock",
  description: "How many of a product are in stock.",
  inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
  execute: ({ sku }) => (sku === "a-1" ? 3 : 0),
});

/** A context whose `direct:ask` route runs `uri` on `model`, with the `stock` tool registered. */
async function start(models: Parameters<typeof llmPlugin>[0], uri: string) {
  context = createContext();
  context.use(llmPlugin(models));
  context.tools.register(stockTool);
  await context.addRoutes((r) => r.from("direct:ask").routeId("ask").to(uri));
  await context.start();
}

/** The error behind a failed request (the engine wraps step failures in a RouteStepError). */
async function causeOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RouteStepError);
    return (error as Error).cause as Error;
  }
  throw new Error("expected the request to fail");
}

describe("structured output over OpenAI Chat Completions (loopback)", () => {
  it("sends a strict json_schema response format with the tools and parses the final answer", async () => {
    server = await startLoopbackServer([
      { json: openAiToolCallReply([{ id: "call_1", name: "stock", arguments: '{"sku":"a-1"}' }]) },
      { json: openAiTextReply('{"sku":"a-1","quantity":3}') },
    ]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" });
    await start({ models: { openai: model } }, llm("openai").tools("stock").output(orderSchema).uri());

    const exchange = await context.requestExchange("direct:ask", { body: "Order all of a-1 in stock." });
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toEqual({ sku: "a-1", quantity: 3 });
    for (const index of [0, 1]) {
      const body = bodyOf(server.requests, index);
      expect(body.response_format).toEqual({
        type: "json_schema",
        json_schema: {
          name: "final_answer",
          description: "Give the final answer as a JSON object matching this schema.",
          schema: orderSchema,
          strict: true,
        },
      });
      expect(body.tools).toHaveLength(1);
    }
    expect(messagesOf(server.requests, 1).at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: "3",
    });
  });

  it("sends an answer that does not match back with its errors, then takes the corrected one", async () => {
    server = await startLoopbackServer([
      { json: openAiTextReply('{"sku":"a-1","quantity":0}') },
      { json: openAiTextReply('```json\n{"sku":"a-1","quantity":2}\n```') },
    ]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" });
    await start({ models: { openai: model } }, llm("openai").output(orderSchema, { name: "order" }).uri());

    expect(await context.request("direct:ask", "Two of a-1.")).toEqual({ sku: "a-1", quantity: 2 });
    const retry = messagesOf(server.requests, 1);
    expect(retry.at(-2)).toMatchObject({ role: "assistant", content: '{"sku":"a-1","quantity":0}' });
    expect(retry.at(-1)).toEqual({
      role: "user",
      content:
        "Your answer does not match the required JSON schema of 'order': /quantity must be >= 1. " +
        "Answer again with a JSON object matching the schema, and nothing else.",
    });
  });

  it("says strict: false for a schema outside OpenAI's strict subset (an optional property)", async () => {
    server = await startLoopbackServer([{ json: openAiTextReply('{"sku":"b-2"}') }]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" });
    const loose = {
      type: "object",
      properties: { sku: { type: "string" }, note: { type: "string" } },
      required: ["sku"],
    };
    await start({ models: { openai: model } }, llm("openai").output(loose).uri());
    expect(await context.request("direct:ask", "b-2")).toEqual({ sku: "b-2" });
    expect(bodyOf(server.requests, 0).response_format).toMatchObject({ json_schema: { strict: false } });
  });
});

describe("structured output over Anthropic Messages (loopback)", () => {
  it("forces the answer tool when there are no other tools", async () => {
    server = await startLoopbackServer([
      {
        json: anthropicReply(
          [{ type: "tool_use", id: "toolu_1", name: "final_answer", input: { sku: "c-3", quantity: 1 } }],
          "tool_use",
        ),
      },
    ]);
    const model = anthropicMessages({ model: "claude-sonnet-4-20250514", baseURL: server.url, apiKey: "k" });
    await start({ models: { claude: model } }, llm("claude").output(orderSchema).uri());

    expect(await context.request("direct:ask", "One c-3.")).toEqual({ sku: "c-3", quantity: 1 });
    const body = bodyOf(server.requests, 0);
    expect(body.tool_choice).toEqual({ type: "tool", name: "final_answer" });
    expect(body.tools).toEqual([
      {
        name: "final_answer",
        description: "Give the final answer as a JSON object matching this schema.",
        input_schema: orderSchema,
      },
    ]);
  });

  it("offers the answer tool beside the tools, answers a refused answer with a tool_result error, then takes the next", async () => {
    server = await startLoopbackServer([
      {
        json: anthropicReply(
          [{ type: "tool_use", id: "toolu_1", name: "stock", input: { sku: "a-1" } }],
          "tool_use",
        ),
      },
      {
        json: anthropicReply(
          [
            { type: "text", text: "Here it is." },
            { type: "tool_use", id: "toolu_2", name: "final_answer", input: { sku: "a-1" } },
          ],
          "tool_use",
        ),
      },
      {
        json: anthropicReply(
          [{ type: "tool_use", id: "toolu_3", name: "final_answer", input: { sku: "a-1", quantity: 3 } }],
          "tool_use",
        ),
      },
    ]);
    const model = anthropicMessages({ model: "claude-sonnet-4-20250514", baseURL: server.url, apiKey: "k" });
    await start({ models: { claude: model } }, llm("claude").tools("stock").output(orderSchema).uri());

    expect(await context.request("direct:ask", "Order all of a-1 in stock.")).toEqual({
      sku: "a-1",
      quantity: 3,
    });
    const first = bodyOf(server.requests, 0);
    expect(first.tool_choice).toEqual({ type: "any" });
    expect((first.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual([
      "stock",
      "final_answer",
    ]);
    expect(messagesOf(server.requests, 2).at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_2",
          content:
            "Your answer does not match the required JSON schema of 'final_answer': must have required property 'quantity'. " +
            "Answer again with a JSON object matching the schema, and nothing else.",
          is_error: true,
        },
      ],
    });
  });
});

describe("structured output with a replayed transcript", () => {
  it("reads the recorded text as the answer, after a recorded tool call", async () => {
    const model = replayModel({
      provider: "openai",
      model: "gpt-4o-mini",
      turns: [
        { response: openAiToolCallReply([{ id: "call_7", name: "stock", arguments: '{"sku":"e-5"}' }]) },
        { response: openAiTextReply('{"sku":"e-5","quantity":1}') },
      ],
    });
    await start({ models: { replay: model } }, llm("replay").tools("stock").output(orderSchema).uri());
    expect(await context.request("direct:ask", "One e-5.")).toEqual({ sku: "e-5", quantity: 1 });
    expect(model.remaining).toBe(0);
  });
});

describe("structured output with the scripted model", () => {
  it("fails after maxOutputRetries refused answers, naming every failing path", async () => {
    const model = scriptedModel([
      { text: "not json" },
      { text: '{"sku": 7}' },
      { text: '{"quantity": "many"}' },
    ]);
    await start(
      { models: { scripted: model } },
      llm("scripted").output(orderSchema).maxOutputRetries(2).uri(),
    );

    const error = await causeOf(context.request("direct:ask", "Order something."));
    expect(error).toBeInstanceOf(OutputValidationError);
    const refused = error as OutputValidationError;
    expect(refused.code).toBe("OUTPUT_INVALID");
    expect(refused.attempts).toBe(3);
    expect(refused.issues).toEqual([
      { path: "", message: "must have required property 'sku'" },
      { path: "/quantity", message: "must be integer" },
    ]);
    expect(refused.message).toContain("must have required property 'sku'; /quantity must be integer");
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: "user",
      content: expect.stringContaining("is not valid JSON"),
    });
    expect(model.requests[2]?.messages.at(-1)).toMatchObject({
      role: "user",
      content: expect.stringContaining("must have required property 'quantity'; /sku must be string"),
    });
  });

  it("reads a registered schema by name in the URI form, and a zod schema's output is the body", async () => {
    const order = z
      .object({ sku: z.string(), quantity: z.number().int().min(1).default(1) })
      .transform((value) => ({
        ...value,
        label: `${value.quantity} x ${value.sku}`,
      }));
    const model = scriptedModel([{ text: '{"sku":"d-4"}' }]);
    await start({ models: { scripted: model }, schemas: { order } }, "llm:scripted?output=order");
    expect(await context.request("direct:ask", "One d-4.")).toEqual({
      sku: "d-4",
      quantity: 1,
      label: "1 x d-4",
    });
    expect(model.requests[0]?.output).toMatchObject({ name: "order", schema: { type: "object" } });
  });

  it("refuses an output name nobody registered when the route is added", async () => {
    context = createContext();
    context.use(llmPlugin({ models: { scripted: scriptedModel([]) }, schemas: { order: orderSchema } }));
    await expect(
      context.addRoutes((r) => r.from("direct:ask").to("llm:scripted?output=ordr")),
    ).rejects.toThrow("option 'output' names no registered schema 'ordr'; registered schemas: order");
  });

  it("refuses a schema that does not describe an object, and a maxOutputRetries out of range", async () => {
    expect(() => llm("scripted").output({ type: "array", items: { type: "string" } })).toThrow(
      `llm("scripted").output(): output 'final_answer' must describe a JSON object (root type "object")`,
    );
    expect(() => llmPlugin({ models: {}, schemas: { list: { type: "string" } } })).toThrow(
      `llmPlugin: schemas.list: output 'list' must describe a JSON object (root type "object"), found type "string"`,
    );
    expect(() => llmPlugin({ models: {}, schemas: { "my order": orderSchema } })).toThrow(
      `llmPlugin: schemas.my order: the output name must match ^[a-zA-Z0-9_-]{1,64}$ (found "my order")`,
    );
    expect(() => llmPlugin({ models: {}, schemas: [] as never })).toThrow(
      "llmPlugin: option 'schemas' expects output schemas by name, e.g. { order: orderSchema } (found an array)",
    );
    context = createContext();
    context.use(llmPlugin({ models: { scripted: scriptedModel([]) } }));
    await expect(
      context.addRoutes((r) =>
        r.from("direct:ask").to(llm("scripted").output(orderSchema).maxOutputRetries(11).uri()),
      ),
    ).rejects.toThrow("maxOutputRetries");
  });

  it("answers an answer call made next to other tool calls with an error result", async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "stock", arguments: { sku: "a-1" } },
          { name: "final_answer", arguments: { sku: "a-1", quantity: 3 } },
        ],
      },
      { toolCalls: [{ name: "final_answer", arguments: { sku: "a-1", quantity: 3 } }] },
    ]);
    await start({ models: { scripted: model } }, llm("scripted").tools("stock").output(orderSchema).uri());
    expect(await context.request("direct:ask", "Order.")).toEqual({ sku: "a-1", quantity: 3 });
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: "tool",
      results: [
        expect.objectContaining({ name: "stock", output: "3", isError: false }),
        expect.objectContaining({
          name: "final_answer",
          output:
            "call 'final_answer' alone, in a turn of its own, once you have the results of the other tools",
          isError: true,
        }),
      ],
    });
  });

  it("stops at maxIterations without an answer as a LOOP_LIMIT error", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: "stock", arguments: { sku: "a-1" } }] }]);
    await start(
      { models: { scripted: model } },
      llm("scripted").tools("stock").output(orderSchema).maxIterations(1).uri(),
    );
    const error = await causeOf(context.request("direct:ask", "Order."));
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).code).toBe("LOOP_LIMIT");
    expect(error.message).toContain("before an answer matching output 'final_answer'");
  });
});
