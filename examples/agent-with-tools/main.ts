import { createContext } from "@routekit/core";
import {
  anthropicMessages,
  type LanguageModel,
  LLM_HEADERS,
  llm,
  llmPlugin,
  openAiChat,
} from "@routekit/llm";
import { scriptedAgent } from "./scripted-agent.js";

// #region choose-model
/** A real model when a key is set, otherwise a scripted one (no network). */
function chooseModel(): LanguageModel {
  if (process.env.OPENAI_API_KEY !== undefined || process.env.OPENAI_BASE_URL !== undefined) {
    return openAiChat({ model: process.env.OPENAI_MODEL ?? "gpt-4o-mini" });
  }
  if (process.env.ANTHROPIC_API_KEY !== undefined) {
    return anthropicMessages({ model: process.env.ANTHROPIC_MODEL ?? "claude-3-5-haiku-latest" });
  }
  console.log("(no OPENAI_API_KEY or ANTHROPIC_API_KEY: using a scripted model)");
  return scriptedAgent();
}
// #endregion

const orders: Record<string, { status: string; totalUsd: number }> = {
  "A-17": { status: "shipped", totalUsd: 120 },
};

// #region plugin
const context = createContext({ logLevel: "warn" });
context.use(llmPlugin({ models: { agent: chooseModel() } }));
// #endregion

// #region routes
await context.addRoutes((r) => {
  // A route as a tool: the body is the arguments object, the reply body is the tool output.
  r.from("direct:tool.order_status")
    .routeId("order-status-tool")
    .asLlmTool("order_status", {
      description: "Look up an order by id; returns its status and total in USD.",
      input: {
        type: "object",
        properties: { orderId: { type: "string", description: "the order id, like A-17" } },
        required: ["orderId"],
        additionalProperties: false,
      },
    })
    // The body is typed from `input`: { orderId: string }.
    .transform(({ body }) => orders[body.orderId] ?? { error: `no order '${body.orderId}'` });

  r.from("direct:ask")
    .routeId("agent")
    .to(llm("agent").tools("order_status", "convert_currency").maxIterations(4).includeContent().uri());
});
// #endregion

// #region register
// A tool that is not a route: a plain object with the `params` shorthand.
context.tools.register({
  name: "convert_currency",
  description: "Convert an amount in USD to another currency.",
  params: {
    amount: { type: "number", description: "the amount in USD", required: true },
    to: { type: "string", enum: ["EUR", "GBP"], required: true },
  },
  execute: ({ amount, to }: Record<string, unknown>) => {
    const rate = to === "EUR" ? 0.92 : 0.79;
    return { amount: Math.round(Number(amount) * rate * 100) / 100, currency: to };
  },
});
// #endregion

// #region events
// Tool calls as they happen; `includeContent()` above puts arguments and outputs in the events.
context.events.on("tool-call-completed", (event) => {
  const status = event.isError ? "error" : "ok";
  console.log(
    `tool ${event.toolName}(${event.arguments ?? ""}) ${status} in ${event.durationMs.toFixed(1)} ms -> ${event.output ?? ""}`,
  );
});
// #endregion

// #region request
await context.start();
const reply = await context.requestExchange("direct:ask", {
  body: "What is the status of order A-17, and what is its total in euros?",
});
if (reply.error !== undefined) throw reply.error;
console.log(`answer: ${String(reply.body)}`);
const iterations = reply.headers[LLM_HEADERS.iterations];
console.log(
  `model calls: ${String(iterations)}, tool calls: ${String(reply.headers[LLM_HEADERS.toolCalls])}`,
);
await context.stop();
// #endregion
