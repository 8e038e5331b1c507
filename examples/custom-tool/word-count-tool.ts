// The same tool in the wrapper shape: a RouteBuilder that mounts the step behind a direct:
// endpoint with the tool aspect attached, the one-line bridge every built-in wrapper is.
// #region word-count-tool
import "@routekit/llm/tool";
import { RouteBuilder } from "@routekit/core";
import type { ToolWrapperOptions } from "@routekit/llm-tools";
import { WORD_COUNT_INPUT_SCHEMA, type WordCountOptions } from "./word-count-step.js";

/** Options of WordCountTool: the step's options plus where to mount it and what to tell the model. */
export interface WordCountToolOptions extends WordCountOptions, ToolWrapperOptions {}

/** word_count as a self-contained route on `direct:llm.word_count`. */
export class WordCountTool extends RouteBuilder {
  readonly #options: WordCountToolOptions;

  constructor(options: WordCountToolOptions = {}) {
    super();
    this.#options = options;
  }

  override configure(): void {
    const { endpointUri, description, routeId, ...step } = this.#options;
    this.from(endpointUri ?? "direct:llm.word_count")
      .routeId(routeId ?? "tool.word_count")
      .asLlmTool("word_count", {
        description: description ?? "Count the words of a text.",
        input: WORD_COUNT_INPUT_SCHEMA,
      })
      .wordCount(step);
  }
}
// #endregion word-count-tool
