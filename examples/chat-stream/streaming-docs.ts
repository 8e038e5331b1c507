// The code of the streaming sections of docs/guide/llm-step.md; run by streaming-docs.test.ts.
import assert from "node:assert/strict";
import { createContext } from "@routekit/core";
import { type LanguageModel, llm, llmPlugin, llmStreamOf, streamToolLoop } from "@routekit/llm";

/** Streams one run with `streamToolLoop`, then the same through a route's `.stream()` step. */
export async function main(model: LanguageModel): Promise<void> {
  // #region stream-tool-loop
  const stream = streamToolLoop({ model, tools: new Map(), input: "Say hello" });
  let shown = "";
  for await (const text of stream.textStream) shown += text; // each delta as it arrives
  const result = await stream.result; // usage, stop reason, messages
  // #endregion stream-tool-loop
  assert.equal(shown, result.text);

  const context = createContext({ logLevel: "warn" });
  context.use(llmPlugin({ models: { chat: model } }));
  // #region stream-step
  await context.addRoutes((r) => {
    r.from("direct:chat").to(llm("chat").stream().uri());
  });
  await context.start();
  const exchange = await context.requestExchange("direct:chat", { body: "Say hello" });
  for await (const part of llmStreamOf(exchange) ?? []) {
    if (part.type === "text-delta") process.stdout.write(part.text);
    if (part.type === "finish") console.log(`\n(${part.usage.outputTokens} tokens out)`);
  }
  // #endregion stream-step
  assert.equal(exchange.body, result.text);
  await context.stop();
}
