// The tool example of the root README.md; run by examples/test/readme-tools.test.ts against an
// OpenAI-compatible server on 127.0.0.1 (OPENAI_BASE_URL), which answers as a model would.
// #region tools
import { createContext } from "@routekit/core";
import { llm, llmPlugin, openAiChat } from "@routekit/llm";
import { MathEvalTool } from "@routekit/llm-tools";

const context = createContext();
context.use(llmPlugin({ models: { assistant: openAiChat({ model: "gpt-4o-mini" }) } }));
await context.addRoutes(new MathEvalTool()); // a built-in tool: math_eval
await context.addRoutes((r) => {
  // Any route is a tool: the body is the model's arguments, the reply body the tool's output.
  r.from<{ id: string }>("direct:order-lookup")
    .asLlmTool("order_lookup", {
      description: "Look up an order by id: its item count and unit price in USD.",
      input: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    })
    .transform((exchange) => ({ id: exchange.body.id, items: 3, unitPriceUsd: 12.5 }));
  // An LLM step: a tool-calling loop whose tools are those routes.
  r.from("direct:ask").to(llm("assistant").tools("order_lookup", "math_eval").maxIterations(5).uri());
});
await context.start();
const answer = await context.request("direct:ask", "What does order A-17 cost in total?");
await context.stop();

// #endregion tools

export { answer };
