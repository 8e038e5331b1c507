// The code of docs/installing.md: type-checked; the test imports it to check what the page says.
import { createContext } from "@routekit/core";

// #region imports
import "@routekit/llm-tools"; // now every route has .httpFetch(), .jsonPath(), .mathEval(), ...
import { llm, llmPlugin } from "@routekit/llm"; // .asLlmTool(...) and context.tools
// #endregion imports

/** The steps and the tool registry are there once the packages are imported; returns what they gave. */
export async function main(): Promise<{ tools: string[]; uri: string; pulled: unknown; computed: unknown }> {
  const context = createContext({ logLevel: "off" });
  context.use(llmPlugin({ models: {} }));
  await context.addRoutes((r) => {
    r.from("direct:pull").jsonPath({ path: "$.total" });
    r.from("direct:compute").mathEval();
    r.from("direct:llm.total").asLlmTool("total", { description: "The total of an order." }).setBody("42");
  });
  const tools = context.tools.names();
  await context.start();
  try {
    return {
      tools,
      uri: llm("openai").tools("total").uri(),
      pulled: await context.request("direct:pull", { total: 42 }),
      computed: await context.request("direct:compute", { expression: "6 * 7" }),
    };
  } finally {
    await context.stop();
  }
}
