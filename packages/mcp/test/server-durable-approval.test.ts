// A durable agent run started by an MCP tool call asks the calling client to approve a tool call
// (elicitation/create): the official SDK Client answers over Streamable HTTP on 127.0.0.1, and the
// answer approves or denies the parked call; a loopback OpenAI-compatible model drives the run.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { createContext, createMemoryCheckpointStore, type RouteContext } from "@routekit/core";
import { llm, llmPlugin, openAiChat } from "@routekit/llm";
import { afterEach, describe, expect, it } from "vitest";
import { serveMcpHttp } from "../src/index.js";
import { text } from "./support/http-client.js";

const TOKEN = "test-token-0123456789";
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function completion(message: Record<string, unknown>, finishReason: string) {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_760_000_000,
    model: "gpt-4o-mini",
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** A loopback model: turn 1 asks to refund A-1; turn 2 answers with what the tool said. */
async function startModel(): Promise<string> {
  const http: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      const messages = (JSON.parse(body) as { messages: Array<{ role: string; content: unknown }> }).messages;
      const toolAnswer = messages.find((message) => message.role === "tool");
      const reply =
        toolAnswer === undefined
          ? completion(
              {
                role: "assistant",
                content: null,
                tool_calls: [
                  {
                    id: "call_refund",
                    type: "function",
                    function: { name: "refund", arguments: '{"order":"A-1"}' },
                  },
                ],
              },
              "tool_calls",
            )
          : completion({ role: "assistant", content: `done: ${String(toolAnswer.content)}` }, "stop");
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    });
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  cleanups.push(async () => {
    const closed = new Promise((resolve) => http.close(resolve));
    http.closeAllConnections();
    await closed;
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`;
}

async function servedAgent(refunds: string[]) {
  const context: RouteContext = createContext({ logLevel: "warn" });
  const baseURL = await startModel();
  context.use(
    llmPlugin({
      models: { m: openAiChat({ model: "gpt-4o-mini", apiKey: "sk-test", baseURL, maxRetries: 0 }) },
      durable: { store: createMemoryCheckpointStore(), recoverEveryMs: 0, instanceId: "a" },
    }),
  );
  await context.addRoutes((r) => {
    r.from("direct:refund")
      .asLlmTool("refund", { description: "Refunds an order.", durability: { needsApproval: true } })
      .transform((exchange) => {
        refunds.push((exchange.body as { order: string }).order);
        return "refunded";
      });
    r.from("direct:agent")
      .asLlmTool("agent", {
        description: "Does what it is asked with the shop's tools.",
        input: { type: "object", properties: { task: { type: "string" } }, required: ["task"] },
      })
      .setBody(({ body }) => (body as { task: string }).task)
      .to(llm("m").tools("refund").durable().uri());
  });
  await context.start();
  const server = await serveMcpHttp(context, { tools: ["agent"], port: 0, token: TOKEN });
  cleanups.push(
    () => context.stop(),
    () => server.close(),
  );
  return { context, url: server.url };
}

async function connect(url: string, answer?: (message: string) => ElicitResult) {
  const client = new Client(
    { name: "approver", version: "1.0.0" },
    answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return answer(request.params.message);
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  cleanups.push(() => client.close());
  return { client, asked };
}

describe("approval of a durable run's tool call by MCP elicitation", () => {
  it("asks the calling client; its approval resumes the run and the call answers with the run's result", async () => {
    const refunds: string[] = [];
    const { context, url } = await servedAgent(refunds);
    const { client, asked } = await connect(url, () => ({
      action: "accept",
      content: { approved: true },
    }));
    const result = await client.callTool({ name: "agent", arguments: { task: "refund A-1" } });
    expect(asked).toEqual([`Approve the call of tool 'refund' with arguments {"order":"A-1"}?`]);
    expect(refunds).toEqual(["A-1"]);
    expect(text(result)).toBe("done: refunded");
    expect(await context.agents.list({ status: "completed" })).toHaveLength(1);
    expect(await context.agents.list({ status: "parked" })).toHaveLength(0);
  });

  it("a denial with a reason is the tool result the model reads; the tool never runs", async () => {
    const refunds: string[] = [];
    const { url } = await servedAgent(refunds);
    const { client } = await connect(url, () => ({
      action: "accept",
      content: { approved: false, reason: "not without a receipt" },
    }));
    const result = await client.callTool({ name: "agent", arguments: { task: "refund A-1" } });
    expect(refunds).toEqual([]);
    expect(text(result)).toMatch(/^done: .*not without a receipt/);
  });

  it("leaves the run parked for another path when the client cannot be asked or cancels", async () => {
    const refunds: string[] = [];
    const { context, url } = await servedAgent(refunds);
    const { client } = await connect(url);
    const parked = await client.callTool({ name: "agent", arguments: { task: "refund A-1" } });
    expect(JSON.parse(text(parked))).toMatchObject({ status: "parked", pending: [{ toolName: "refund" }] });
    const cancelling = await connect(url, () => ({ action: "cancel" }));
    const stillParked = await cancelling.client.callTool({
      name: "agent",
      arguments: { task: "refund A-1" },
    });
    expect(JSON.parse(text(stillParked))).toMatchObject({ status: "parked" });
    expect(cancelling.asked).toHaveLength(1);
    expect(await context.agents.list({ status: "parked" })).toHaveLength(2);
    expect(refunds).toEqual([]);
  });
});
