// The tool route of docs/tools/authoring-tools.md; the page's other blocks quote
// examples/custom-tool/word-count-step.ts and word-count-tool.ts, which examples/custom-tool/main.ts runs.
import "@routekit/llm/tool";
import { RouteBuilder } from "@routekit/core";
import "../../custom-tool/word-count-step.js";
import { WORD_COUNT_INPUT_SCHEMA } from "../../custom-tool/word-count-step.js";

/** The tool route written by hand. */
export class WordCountRoute extends RouteBuilder {
  configure() {
    // #region tool-route
    this.from("direct:llm.word_count")
      .asLlmTool("word_count", { description: "Count the words of a text.", input: WORD_COUNT_INPUT_SCHEMA })
      .wordCount();
    // #endregion tool-route
  }
}
