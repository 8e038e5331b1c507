// A custom tool in the DSL-step shape: a step factory registered with defineStep, typed by
// declaration merging on RouteDsl, validating its input with the helpers the built-ins use.
// #region word-count-step
import { defineStep, type Exchange } from "@routekit/core";
import { optionalBoolean, parseToolInput, requireString } from "@routekit/llm-tools";

/** Options of word_count: they fix fields, the body supplies the rest. */
export interface WordCountOptions {
  /** Count only distinct words (case-insensitive). Fixes the input's `distinct` key. */
  distinct?: boolean;
}

/** The tool's input schema, handed to asLlmTool. */
export const WORD_COUNT_INPUT_SCHEMA = {
  type: "object",
  properties: {
    text: { type: "string", description: "The text whose words are counted." },
    distinct: { type: "boolean", description: "Count each distinct word once. Default false." },
  },
  required: ["text"],
  additionalProperties: false,
} as const;

const TOOL = "word_count";

/** Counts the words of `text`; the result is JSON text, as a model reads it. */
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

/** `.wordCount(options)`: the body becomes the word count as JSON text. */
export const wordCount = defineStep("wordCount", (options: WordCountOptions = {}) => (exchange: Exchange) => {
  exchange.body = countWords(exchange.body, options);
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** word_count as a step: the body becomes the number of words as JSON text. */
    wordCount(options?: WordCountOptions): RouteDsl<string>;
  }
}
// #endregion word-count-step
