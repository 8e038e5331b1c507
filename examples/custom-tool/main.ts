// Runs a custom tool both ways: as an enrichment step in a pipeline, and as an LLM tool called
// by a scripted model. `pnpm exec tsx examples/custom-tool/main.ts`
import { createContext } from "@routekit/core";
import { llm, llmPlugin } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import "@routekit/llm-tools";
import { wordCount } from "./word-count-step.js";
import { WordCountTool } from "./word-count-tool.js";

const model = scriptedModel([
  { toolCalls: [{ name: "word_count", arguments: { text: "the cat saw the other cat", distinct: true } }] },
  (request) => {
    const last = request.messages.at(-1);
    const output = last?.role === "tool" ? last.results[0]?.output : "?";
    return { text: `There are ${output} distinct words.` };
  },
]);

const context = createContext();
context.use(llmPlugin({ models: { scripted: model } }));
await context.addRoutes(new WordCountTool());
await context.addRoutes((r) => {
  // The DSL step as an enrichment stage: no tool aspect, options fix fields.
  r.from("direct:enrich")
    .jsonPath<string>({ path: "$.review", output: "value" }) // the review text itself, not JSON
    .wordCount();
  // The same step as a plain processor.
  r.from("direct:distinct").process(wordCount({ distinct: true }));
  // An LLM step that may call the tool by name.
  r.from("direct:ask").to(llm("scripted").tools("word_count").uri());
});
await context.start();

const review = { id: 7, review: "Sturdy, quiet and quick. Quiet enough for a library." };
console.log("enrichment:", await context.request("direct:enrich", review), "words in the review");
console.log(
  "plain processor:",
  await context.request("direct:distinct", "Quiet, quiet, QUIET."),
  "distinct word",
);
console.log(
  "wrapper, JSON text input:",
  await context.request("direct:llm.word_count", '{"text":"one two three"}'),
);
console.log("LLM step:", await context.request("direct:ask", "How many distinct words?"));
await context.stop();
