// The code of docs/tools/authoring-tools.md: type-checked, not run. It restates
// examples/custom-tool/word-count-step.ts and word-count-tool.ts, which run in examples/custom-tool/main.ts.
import { WORD_COUNT_INPUT_SCHEMA, type WordCountOptions } from "../../custom-tool/word-count-step.js";

const TOOL = "word_count";

// #region word-count-step
import { defineStep, type Exchange } from "@routekit/core";
import { optionalBoolean, parseToolInput, requireString } from "@routekit/llm-tools";

export function countWords(body: unknown, options: WordCountOptions = {}): string {
  // A plain string body is the text itself (the enrichment form); anything else is tool input.
  const input =
    typeof body === "string" && !body.trimStart().startsWith("{")
      ? { text: body }
      : parseToolInput(body, TOOL);
  const text = requireString(input, "text", TOOL);
  const distinct = options.distinct ?? optionalBoolean(input, "distinct", TOOL) ?? false;
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return JSON.stringify(distinct ? new Set(words).size : words.length);
}

export const wordCount = defineStep("wordCount", (options: WordCountOptions = {}) => (exchange: Exchange) => {
  exchange.body = countWords(exchange.body, options);
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    wordCount(options?: WordCountOptions): RouteDsl<string>;
  }
}
// #endregion word-count-step

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

type WordCountToolOptions = WordCountOptions & ToolWrapperOptions;

// #region word-count-tool
import "@routekit/llm/tool";
import { RouteBuilder } from "@routekit/core";
import type { ToolWrapperOptions } from "@routekit/llm-tools";

export class WordCountTool extends RouteBuilder {
  readonly #options: WordCountToolOptions;

  constructor(options: WordCountToolOptions = {}) {
    super();
    this.#options = options;
  }

  override configure(): void {
    const { endpointUri, description, ...step } = this.#options;
    this.from(endpointUri ?? "direct:llm.word_count")
      .asLlmTool("word_count", {
        description: description ?? "Count the words of a text.",
        input: WORD_COUNT_INPUT_SCHEMA,
      })
      .wordCount(step);
  }
}
// #endregion word-count-tool
